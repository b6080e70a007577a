"""Flet's per-message debug text (companion/app/flet_messages.py): built only when the transport
log writes it, the same text when it does, and the pinned Flet's line it answers still there."""

from __future__ import annotations

import inspect
import logging
from importlib.metadata import version

import pytest
from flet.messaging.protocol import Message, MessageAction
from flet_web.fastapi.flet_app import FletApp

from companion.app import flet_messages
from tests.support.table_entry import open_table, page_context_restored  # noqa: F401


@pytest.fixture
def quiet():
    flet_messages.quiet_message_text()
    yield
    logging.getLogger("flet_transport").setLevel(logging.NOTSET)


class Counted:
    """A message body whose repr counts how often it is built."""

    built = 0

    def __repr__(self) -> str:
        Counted.built += 1
        return "Counted()" * 1000


def test_the_pinned_flet_still_builds_the_text_on_every_message():
    """When this fails, Flet's send_message changed: look at flet_messages again (its line may be
    gone, built lazily, or moved), then pin the new version here."""
    assert version("flet-web") == "1.0.5" and version("flet") == "1.0.5"
    source = inspect.getsource(FletApp.send_message)
    assert source.count(flet_messages.FLET_LINE) == 1
    assert flet_messages.FLET_STR is not flet_messages._message_text  # Flet's own, kept for the debug log


def test_the_text_is_not_built_while_the_transport_log_is_off(quiet):
    logging.getLogger("flet_transport").setLevel(logging.INFO)
    Counted.built = 0
    message = Message(MessageAction.PATCH_CONTROL, Counted())
    said = f"send_message: {message}"
    assert Counted.built == 0 and said == "send_message: <PATCH_CONTROL>"


def test_the_text_is_flets_own_when_the_transport_log_writes_it(quiet):
    logging.getLogger("flet_transport").setLevel(logging.DEBUG)
    Counted.built = 0
    message = Message(MessageAction.PATCH_CONTROL, Counted())
    assert f"send_message: {message}" == f"send_message: {flet_messages.FLET_STR(message)}"
    assert Counted.built == 2 and "Counted()" in str(message)


def test_a_page_of_the_app_sends_its_messages_without_the_text(tmp_path):
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    Message.__str__ = flet_messages.FLET_STR  # type: ignore[method-assign]
    service, app, sid, _session = open_table(tmp_path, "stupide-vautour", ["Anne", "Bruno"])
    assert isinstance(app, App) and isinstance(service, SessionService) and isinstance(service.store, Store)
    assert Message.__str__ is flet_messages._message_text
