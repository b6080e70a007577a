"""Small building blocks shared by every screen: sizes readable across a table, big touch targets,
stable test identifiers. No sentence is written here: every text a player reads is passed in,
already rendered from the catalogues."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

import flet as ft

# Sizes for a 10-inch tablet read from across a table (logical pixels).
TOUCH = 64          # minimum height of anything a finger taps
TOUCH_MIN = 48      # the least any tap target gets, on a phone too
NARROW = 600        # a screen narrower than this (a phone) gets the compact layout
DIMMED = 0.45       # the opacity of a tappable card that cannot be tapped
GAP = 16
RADIUS = 14
FONT_BODY = 20
FONT_SMALL = 17
FONT_LABEL = 22
FONT_TITLE = 30
FONT_PROMPT = 32
FONT_HUGE = 44

Handler = Callable[[Any], None]


def tid(identifier: str, control: ft.Control, **semantics: Any) -> ft.Semantics:
    """Wrap a control with a stable identifier (the browser tests' selector:
    ``[flt-semantics-identifier="…"]``). The wrapper takes over the child's ``expand`` and
    ``col`` so that it sits in a Row or a ResponsiveRow exactly as the child would.

    The identifier is also the wrapper's key (unless one is given): Flet pairs the controls of a
    list by key, and unkeyed ones by their place. By place, a log line that moves down when a new
    one comes on top, or a block after one that appears or goes, would be compared with whatever
    held its place before and sent to the browser again, even when the screen kept it as the
    same object (companion.app.memo). An identifier names one control on a screen, so no list
    holds two controls with the same key."""
    for name in ("expand", "col"):
        value = getattr(control, name, None)
        if value is not None and name not in semantics:
            semantics[name] = value
    semantics.setdefault("key", identifier)
    return ft.Semantics(identifier=identifier, content=control, **semantics)


def text(value: str, size: float = FONT_BODY, *, weight: ft.FontWeight | None = None,
         color: str | None = None, ident: str | None = None, selectable: bool = False,
         align: ft.TextAlign | None = None, italic: bool = False, expand: bool | int | None = None) -> ft.Control:
    control = ft.Text(value, size=size, weight=weight, color=color, selectable=selectable,
                      text_align=align or ft.TextAlign.START, expand=expand, italic=italic)
    return tid(ident, control) if ident else control


def title(value: str, ident: str | None = None) -> ft.Control:
    return text(value, FONT_TITLE, weight=ft.FontWeight.BOLD, ident=ident)


def subtitle(value: str, ident: str | None = None) -> ft.Control:
    return text(value, FONT_LABEL, weight=ft.FontWeight.W_600, ident=ident)


def muted(value: str, size: float = FONT_SMALL, ident: str | None = None) -> ft.Control:
    return text(value, size, color=ft.Colors.ON_SURFACE_VARIANT, ident=ident)


def _shape() -> ft.RoundedRectangleBorder:
    return ft.RoundedRectangleBorder(radius=RADIUS)


def button(label: str, on_click: Handler | None, *, ident: str, icon: ft.IconData | None = None,
           kind: str = "tonal", disabled: bool = False, expand: bool | int | None = None,
           height: float = TOUCH, size: float = FONT_LABEL, tooltip: str | None = None) -> ft.Control:
    """A big button. ``kind``: primary (filled), tonal, outlined, danger, text."""
    style = ft.ButtonStyle(
        shape=_shape(),
        padding=ft.Padding.symmetric(horizontal=22, vertical=10),
        text_style=ft.TextStyle(size=size, weight=ft.FontWeight.W_600),
        icon_size=size + 6,
    )
    content = ft.Text(label, size=size, weight=ft.FontWeight.W_600, text_align=ft.TextAlign.CENTER)
    if kind == "danger":
        style.bgcolor = ft.Colors.ERROR_CONTAINER
        style.color = ft.Colors.ON_ERROR_CONTAINER
    kinds = {"primary": ft.FilledButton, "danger": ft.FilledButton, "outlined": ft.OutlinedButton,
             "text": ft.TextButton}
    control = kinds.get(kind, ft.FilledTonalButton)(content=content, icon=icon, on_click=on_click, disabled=disabled,
                                                    style=style, height=height, expand=expand, tooltip=tooltip)
    return tid(ident, control)


def icon_button(icon: ft.IconData, on_click: Handler | None, *, ident: str, tooltip: str,
                disabled: bool = False, selected: bool | None = None, size: float = TOUCH) -> ft.Control:
    control = ft.IconButton(icon=icon, on_click=on_click, tooltip=tooltip, disabled=disabled,
                            icon_size=30 if size >= TOUCH else 26, width=size, height=size, selected=selected)
    return tid(ident, control)


def tile(content: ft.Control, on_click: Handler | None, *, ident: str, selected: bool = False,
         disabled: bool = False, width: float | None = None, height: float | None = None,
         padding: Any = 14, bgcolor: str | None = None, label: str | None = None,
         why: Handler | None = None) -> ft.Control:
    """A tappable card: a selectable chip, a money card, a game in a list. No ink ripple: a card that
    is picked shows it at once by its own selected state (a ripple is about 27 frames that a
    tablet's browser draws in software; README, Benchmarks); buttons keep Material's feedback. The
    games' own cards (a hand card, a point card, an animal) are drawn the same way.

    ``why``: a greyed (``disabled``) choice still answers a tap with this handler, which says why it
    cannot be chosen (TableContext.why_not) and enters nothing; the tile stays dimmed."""
    if selected:
        bg: str = ft.Colors.PRIMARY_CONTAINER
        border = ft.Border.all(3, ft.Colors.PRIMARY)
    else:
        bg = bgcolor or ft.Colors.SURFACE_CONTAINER_HIGH
        border = ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)
    box = ft.Container(
        content=content, on_click=why if disabled else on_click, bgcolor=bg, border=border,
        border_radius=RADIUS, padding=padding, width=width, height=height,
        alignment=ft.Alignment.CENTER if width else None, opacity=DIMMED if disabled else 1.0,
    )
    return tid(ident, box, button=True, selected=selected, label=label)


def why_line(line: str | None, ident: str) -> ft.Control:
    """The one line that says why the greyed choice just tapped cannot be chosen, shown by the
    choices (where the eye is); no line: an empty place under the same key, so that the parts
    around it keep their places when it comes and goes."""
    if not line:
        return ft.Container(visible=False, key=ident)
    colour = ft.Colors.ON_SECONDARY_CONTAINER
    box = ft.Container(ft.Row([ft.Icon(ft.Icons.INFO_OUTLINE, size=28, color=colour),
                               ft.Text(line, size=FONT_LABEL, weight=ft.FontWeight.W_600, color=colour, expand=True)],
                              spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                       bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=RADIUS,
                       padding=ft.Padding.symmetric(horizontal=14, vertical=8))
    return tid(ident, box, live_region=True)


def disable(control: ft.Control) -> ft.Control:
    """Disable a built part of a screen: Flet passes ``disabled`` down to every control below, and
    buttons and fields grey themselves; a tappable card (a plain container) does not, so it is
    dimmed as a disabled :func:`tile` is."""
    control.disabled = True
    for node in walk(control):
        if isinstance(node, ft.Container) and node.on_click is not None:
            node.opacity = DIMMED
    return control


def chip(label: str, on_click: Handler | None, *, ident: str, selected: bool = False,
         disabled: bool = False, icon: ft.IconData | None = None, compact: bool = False,
         why: Handler | None = None) -> ft.Control:
    """A choice among a few (a filter, a game): ``compact`` on a phone, where two or three share a
    line of a :func:`wrap` and still give a finger TOUCH_MIN. ``why``: as :func:`tile`'s, what a tap
    on it says while it is greyed."""
    size = 20 if compact else 26
    parts: list[ft.Control] = []
    if icon is not None:
        parts.append(ft.Icon(icon, size=size))
    elif selected:
        parts.append(ft.Icon(ft.Icons.CHECK, size=size))
    parts.append(ft.Text(label, size=FONT_SMALL if compact else FONT_LABEL,
                         weight=ft.FontWeight.W_600 if selected else None))
    return tile(ft.Row(parts, tight=True, spacing=6 if compact else 8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                on_click, ident=ident, selected=selected, disabled=disabled, why=why,
                padding=ft.Padding.symmetric(horizontal=12, vertical=10) if compact
                else ft.Padding.symmetric(horizontal=18, vertical=17),
                height=TOUCH_MIN if compact else None)


def panel(content: ft.Control, *, ident: str | None = None, padding: float = 18,
          bgcolor: str | None = None, expand: bool | int | None = None, col: Any = None) -> ft.Control:
    box = ft.Container(content=content, padding=padding, border_radius=RADIUS + 4,
                       bgcolor=bgcolor or ft.Colors.SURFACE_CONTAINER_LOW, expand=expand, col=col,
                       border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))
    return tid(ident, box, col=col) if ident else box


def banner(message: str, *, ident: str, kind: str = "error", details: Iterable[str] = (),
           on_close: Handler | None = None, close_tooltip: str | None = None,
           actions: Iterable[ft.Control] = ()) -> ft.Control:
    """A coloured block that stays until dismissed: a refusal, a conflict, a notice."""
    if kind == "error":
        bg, fg, icon = ft.Colors.ERROR_CONTAINER, ft.Colors.ON_ERROR_CONTAINER, ft.Icons.GAVEL
    elif kind == "ok":
        bg, fg, icon = ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER, ft.Icons.CHECK_CIRCLE
    else:
        bg, fg, icon = ft.Colors.SECONDARY_CONTAINER, ft.Colors.ON_SECONDARY_CONTAINER, ft.Icons.INFO
    lines: list[ft.Control] = [ft.Text(message, size=FONT_LABEL, weight=ft.FontWeight.BOLD, color=fg)]
    lines += [ft.Text(line, size=FONT_BODY, color=fg) for line in details]
    acts = list(actions)
    if acts:
        lines.append(ft.Row(acts, wrap=True, spacing=GAP))
    head: list[ft.Control] = [ft.Icon(icon, color=fg, size=36), ft.Column(lines, expand=True, spacing=6)]
    if on_close is not None:
        head.append(icon_button(ft.Icons.CLOSE, on_close, ident=f"{ident}-close", tooltip=close_tooltip or ""))
    box = ft.Container(ft.Row(head, vertical_alignment=ft.CrossAxisAlignment.START, spacing=GAP),
                       bgcolor=bg, padding=18, border_radius=RADIUS)
    return tid(ident, box)


def wrap(controls: Iterable[ft.Control], spacing: float = 12) -> ft.Row:
    return ft.Row(list(controls), wrap=True, spacing=spacing, run_spacing=spacing)


def walk(control: Any, skip: Callable[[Any], bool] | None = None) -> Iterator[Any]:
    """Every control below (and including) ``control``: for tests and for finding identifiers.
    A control for which ``skip`` is true is left out, and so is everything below it."""
    stack = [control]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if skip is not None and skip(node):
            continue
        yield node
        if not isinstance(node, ft.BaseControl):
            continue
        for name in ("content", "controls", "actions", "title", "leading", "trailing", "subtitle",
                     "label", "icon", "options", "segments", "tabs", "spans"):
            value = getattr(node, name, None)
            if isinstance(value, ft.BaseControl):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in reversed(value) if isinstance(v, ft.BaseControl))
