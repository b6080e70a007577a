"""Every character a player can read is in the font the web client ships (Roboto, in flet_web): the
app runs offline, where Flutter cannot fetch a fallback font, and a character the font lacks shows
as a box. (The narrow no-break space of French typography is one such: the app groups thousands
with the plain no-break space instead.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from models.i18n import LANGUAGES, THIN, catalogue

fontTools = pytest.importorskip("fontTools.ttLib")


def shipped_font() -> Path:
    import flet_web

    return Path(flet_web.__file__).resolve().parent / "web" / "assets" / "fonts" / "roboto.woff2"


def test_every_character_of_every_text_is_in_the_shipped_font():
    cmap = fontTools.TTFont(str(shipped_font())).getBestCmap()
    missing = {}
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            for char in text:
                if ord(char) not in cmap and char not in "\n\t":
                    missing.setdefault(f"U+{ord(char):04X} {char!r}", key)
    assert ord(THIN) in cmap  # what groups a number's thousands
    assert missing == {}


def test_the_check_sees_a_character_the_font_lacks():
    cmap = fontTools.TTFont(str(shipped_font())).getBestCmap()
    assert 0x202F not in cmap and 0x00A0 in cmap and ord("é") in cmap
