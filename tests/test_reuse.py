"""companion.app.reuse: a new tree keeps the controls on screen wherever it equals them."""

from __future__ import annotations

import flet as ft

from companion.app.reuse import reuse


def screen(title: str = "Manche 3", cards: tuple[int, ...] = (1, 2, 3), handler=None, extra: bool = False) -> ft.Column:
    row = [ft.Container(ft.Text(str(c)), key=f"card-{c}", width=48) for c in cards]
    body: list[ft.Control] = [ft.Text(title, size=20), ft.Row(row, spacing=3)]
    if extra:
        body.insert(0, ft.Text("Refus", color=ft.Colors.ERROR))
    body.append(ft.Container(ft.Text("Valider"), on_click=handler))
    return ft.Column([ft.Container(ft.Column(body), padding=8)], key="root")


def test_a_tree_equal_to_the_one_on_screen_is_the_one_on_screen():
    shown = screen()
    assert reuse(shown, screen()) is shown
    assert reuse(None, built := screen()) is built


def test_a_changed_text_takes_a_new_path_down_to_it_and_keeps_everything_else():
    shown = screen()
    built = screen(title="Manche 4")
    got = reuse(shown, built)
    assert got is built  # the root holds a changed control: Flet compares it with the one on screen
    body, old_body = got.controls[0].content.controls, shown.controls[0].content.controls
    assert body[0] is not old_body[0] and body[0].value == "Manche 4"
    assert body[1] is old_body[1]  # the row of cards: equal, so the one on screen (Flet skips it)
    assert body[2] is old_body[2]


def test_a_handler_is_a_property_a_new_closure_is_never_taken_for_the_old_one():
    def old_handler(_):
        return None

    def new_handler(_):
        return None

    shown = screen(handler=old_handler)
    got = reuse(shown, screen(handler=new_handler))
    button = got.controls[0].content.controls[2]
    assert button.on_click is new_handler
    assert button.content is shown.controls[0].content.controls[2].content  # its equal text is reused
    assert reuse(shown, screen(handler=old_handler)) is shown


def test_keyed_items_are_paired_by_key_when_items_come_and_go():
    shown = screen(cards=(1, 2, 3))
    got = reuse(shown, screen(cards=(2, 3, 4)))
    old_row = {c.key: c for c in shown.controls[0].content.controls[1].controls}
    row = got.controls[0].content.controls[1].controls
    assert [c.key for c in row] == ["card-2", "card-3", "card-4"]
    assert row[0] is old_row["card-2"] and row[1] is old_row["card-3"]
    assert row[2] not in old_row.values()


def test_items_without_a_key_are_paired_by_their_rank_among_those_as_flet_pairs_them():
    """A control that appears above unkeyed ones shifts them. Flet pairs the items of a rebuilt
    list without a key by their rank among those, so the row of cards (second before, third now)
    is paired with the « Valider » button: reusing the row there would put a control on screen
    where Flet compares it with another (two controls, one Flet id). Nothing of the shifted list is
    reused; below a pair of equal rank, equal controls are."""
    shown = screen()
    got = reuse(shown, screen(extra=True))
    old = shown.controls[0].content.controls
    body = got.controls[0].content.controls
    assert [type(c).__name__ for c in body] == ["Text", "Text", "Row", "Container"]
    assert not {id(c) for c in body} & {id(c) for c in old}
    # the same list but for a control at its end: the ones above keep their place and are reused
    longer = screen()
    longer.controls[0].content.controls.append(ft.Text("Note"))
    got = reuse(shown, longer)
    body = got.controls[0].content.controls
    assert all(a is b for a, b in zip(body, old)) and len(body) == 4 and body[3].value == "Note"
