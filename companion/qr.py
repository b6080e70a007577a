"""A link drawn as a QR code (segno: pure Python, well kept), for a screen to show: PNG bytes
(a Flet ``Image`` from ``src_base64``) or SVG text. Error correction M: a tablet's screen seen
by a phone's camera, not a printed page; segno raises it for free when the size allows."""

from __future__ import annotations

import io

import segno


def qr_png(link: str, scale: int = 8, border: int = 4) -> bytes:
    """The link as a black-on-white PNG, ``scale`` pixels a module, a quiet zone of ``border`` modules."""
    out = io.BytesIO()
    segno.make(link, error="m", micro=False).save(out, kind="png", scale=scale, border=border)
    return out.getvalue()


def qr_svg(link: str, scale: int = 8, border: int = 4) -> str:
    """The link as an SVG document (UTF-8 text)."""
    out = io.BytesIO()
    segno.make(link, error="m", micro=False).save(out, kind="svg", scale=scale, border=border, xmldecl=False)
    return out.getvalue().decode("utf-8")
