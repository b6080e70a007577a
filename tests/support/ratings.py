"""Ratings: games played to rate, the league's games, and the pixels of a QR code's PNG."""

from __future__ import annotations

import struct
import zlib

from companion.service import SessionService
from tests.support.games import hs_designed


def play_hs(service: SessionService, players: list[str], first: str) -> int:
    record = hs_designed(players, first)
    state = service.start("high-society", players, first_player=first)
    for action in record["actions"]:
        service.submit(state.session_id, action)
    assert service.open(state.session_id).status == "finished"
    return state.session_id


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, one grey byte a pixel) of a PNG in 1- or 8-bit greyscale (what segno writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert head is not None
    width, height, depth, colour, _, _, interlace = head
    assert colour == 0 and depth in (1, 8) and interlace == 0
    stride = (width * depth + 7) // 8
    raw, prior, out = zlib.decompress(idat), bytearray(stride), bytearray()
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left, up, corner = (line[i - 1] if i else 0), prior[i], (prior[i - 1] if i else 0)
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                best = min((abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner))[2]
                line[i] = (line[i] + best) & 255
        prior = line
        if depth == 8:
            out += line[:width]
        else:
            out += bytes(255 if line[x // 8] >> (7 - x % 8) & 1 else 0 for x in range(width))
    return width, height, bytes(out)


A, B, C, D = "Anne", "Bruno", "Chloé", "David"
# (players clockwise, the first player): in these High Society games the first player wins, the
# next one is last and the one after is second (tests/support/games.py's hs_designed)
GAMES = [([A, B, C], A), ([A, B, C], A), ([A, B, C], B), ([A, B, D], D), ([A, C, D], C), ([B, C, D], B),
         ([A, B, C], C), ([A, B, D], A)]
