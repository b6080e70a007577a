"""Player names, the same rules everywhere a name comes in (a record being parsed, the service's
start and add-player, the set-up screen): trimmed, inner runs of spaces made one, no control or
invisible formatting characters, at most MAX_LENGTH characters, and two names that differ only by
case (or by Unicode composition) are the same player.

A NEW name (a new player, a rename, a new table name; never a name already saved, nor a record's,
which stay as they are so that old games open and old profiles still sit at a table) is stricter,
so that a club's history never holds two names nobody can tell apart:

- :func:`normal_name`: kept in Unicode NFKC (fullwidth « Ｌｏｕ » is « Lou », the ligature « ﬁ » is
  « fi »); :func:`known_as` finds the saved name it is (« Ｌｏｕ » is the saved Lou);
- :func:`check_new_name`: at most MAX_MARKS combining marks on one letter; not the look-alike of
  another name (:func:`look_alike`: the same confusables skeleton of Unicode's UTS #39, capitals
  aside: « Lоu » with a Cyrillic о, « Ian » and « lan »); the letters of one script (a name wholly
  in Cyrillic or Greek is fine; Latin with Han, Hiragana, Katakana, Bopomofo or Hangul as UTS #39's
  "highly restrictive" level allows, for Japanese, Chinese and Korean names).

Unicode's data (confusables.txt, Scripts.txt) comes from the ``confusable_homoglyphs`` package,
imported on the first check of a new name only: parsing a record never pays for it."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from models.i18n import Msg

MAX_LENGTH = 40
MAX_MARKS = 2  # combining marks stacked on one letter, after NFKC (which composes « ệ » into one letter)
# Unicode categories a name may not contain: controls, invisible formatting, surrogates, private
# use, unassigned, line and paragraph separators. The zero-width joiner stays (emoji sequences).
_FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_ALLOWED_FORMAT = {"\u200d"}


class BadName(ValueError):
    """A name that cannot be a player's; ``msg`` says why (catalogue keys ``name.*``)."""

    def __init__(self, msg: Msg):
        self.msg = msg
        super().__init__(msg.render("en"))


def clean_name(name: object) -> str:
    """The name as it is kept: NFC, trimmed, inner whitespace runs made one space. BadName if it is
    not text, empty, holds a control character or is longer than MAX_LENGTH."""
    if not isinstance(name, str):
        raise BadName(Msg("name.not_text"))
    if name.isascii() and name.isprintable() and 0 < len(name) <= MAX_LENGTH:
        clean = " ".join(name.split())  # plain ASCII without controls: already NFC, nothing forbidden in it
        if clean:
            return clean
    for char in name:
        if char in _ALLOWED_FORMAT or char in " \t":
            continue
        if unicodedata.category(char) in _FORBIDDEN:
            raise BadName(Msg("name.control", {"name": _visible(name), "code": f"U+{ord(char):04X}"}))
    clean = " ".join(unicodedata.normalize("NFC", name).split())
    if not clean:
        raise BadName(Msg("name.blank"))
    if len(clean) > MAX_LENGTH:
        raise BadName(Msg("name.too_long", {"name": clean[:MAX_LENGTH] + "…", "limit": MAX_LENGTH,
                                            "length": len(clean)}))
    return clean


def name_key(name: str) -> str:
    """What two names are compared by: the same player when their keys are equal."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)


def find_same(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that is the same player as ``name``, or None."""
    key = name_key(name)
    return next((other for other in names if name_key(other) == key), None)


def check_distinct(names: Iterable[str], typed: Sequence[str] | None = None) -> None:
    """BadName (``name.twice``) if two of ``names`` are the same player; the sentence says them as
    ``typed`` (one for each of ``names``, when given: « Lou » and « Ｌｏｕ », both Lou)."""
    seen: dict[str, int] = {}
    shown = list(names)
    said = shown if typed is None else list(typed)
    for i, name in enumerate(shown):
        key = name_key(name)
        if key in seen:
            raise BadName(Msg("name.twice", {"name": said[seen[key]], "other": said[i]}))
        seen[key] = i


def _visible(name: str) -> str:
    """``name`` with its control characters shown as codes, safe to print in a sentence."""
    return "".join(f"U+{ord(c):04X}" if unicodedata.category(c) in _FORBIDDEN and c not in _ALLOWED_FORMAT else c
                   for c in name)


# -- new names -------------------------------------------------------------------------------------


def normal_name(name: object) -> str:
    """A new name as it is kept: :func:`clean_name`'s rules on its Unicode NFKC form. BadName as
    :func:`clean_name` (the length counted after NFKC, which may lengthen a name)."""
    clean = clean_name(name)
    if clean.isascii():
        return clean  # ASCII is already NFKC
    return clean_name(unicodedata.normalize("NFKC", clean))


def known_as(name: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` (saved names) that ``name`` is: the same by :func:`name_key`, else the
    same once both are in NFKC (« Ｌｏｕ » is the saved « Lou », « Lou » a saved « Ｌｏｕ »)."""
    names = tuple(names)
    same = find_same(name, names)
    if same is not None:
        return same
    key = _nfkc_key(name)
    return next((other for other in names if _nfkc_key(other) == key), None)


def check_new_name(name: str, others: Iterable[str]) -> None:
    """BadName when ``name``, a new name as :func:`normal_name` keeps it, could be taken for another:
    not in NFKC (``name.compatibility``: a record's name), more than MAX_MARKS marks on one letter
    (``name.marks``), the look-alike of one of ``others`` (``name.look_alike``, naming it), or
    letters of two scripts (``name.mixed_scripts``, naming the letter). ``others``: every saved
    name and the other names of the same game, never ``name`` itself."""
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:
        raise BadName(Msg("name.compatibility", {"name": name, "normal": normal}))
    stacked = _stacked_marks(name)
    if stacked is not None:
        letter, count = stacked
        raise BadName(Msg("name.marks", {"letter": letter, "count": count, "limit": MAX_MARKS}))
    other = look_alike(name, others)
    if other is not None:
        raise BadName(Msg("name.look_alike", {"name": name, "other": other}))
    odd = _mixed_script(name)
    if odd is not None:
        raise BadName(Msg("name.mixed_scripts", {"name": name, "char": odd, "code": f"U+{ord(odd):04X}"}))


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that looks like ``name``: the same UTS #39 skeleton, of the names
    or of their case-folded forms (names are compared without capitals)."""
    mine = _skeletons(name)
    return next((other for other in others if not mine.isdisjoint(_skeletons(other))), None)


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text`` in NFKC: NFD, each character replaced by its prototype
    (confusables.txt: Cyrillic « о » by « o », « 1 » and « I » by « l », « m » by « rn »), NFD
    again. Two texts with the same skeleton look the same; a skeleton is never shown."""
    prototypes = _prototypes()
    out = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    for _ in range(4):  # a prototype is made of prototypes; the normalisation may give one more pass
        mapped = unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in out))
        if mapped == out:
            break
        out = mapped
    return out


@lru_cache(maxsize=16384)  # a club's saved names, compared with each new name
def _skeletons(name: str) -> frozenset[str]:
    return frozenset((skeleton(name), skeleton(name.casefold())))


def _nfkc_key(name: str) -> str:
    return name_key(unicodedata.normalize("NFKC", name))


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character → its prototype, from the pairs of Unicode's confusables.txt that
    ``confusable_homoglyphs`` keeps both ways (« о » → « o » and « o » → « о »…). Each source of
    confusables.txt maps to one prototype, so the pairs make stars: a prototype of several
    characters (« rn ») is its star's centre, else the character with the most look-alikes (a star
    of two: the lower code point, the same for both)."""
    from confusable_homoglyphs.confusables import confusables_data

    def bare(text: str) -> str:  # the package keeps right-to-left characters between LRMs
        return text.replace("\u200e", "").replace("\u200f", "")

    parent: dict[str, str] = {}

    def root(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    degree: Counter[str] = Counter()
    for source, entries in confusables_data.items():
        a = bare(source)
        for entry in entries:
            b = bare(entry["c"])
            if a and b and a != b:
                degree[a] += 1
                parent[root(a)] = root(b)
    stars: dict[str, list[str]] = {}
    for node in list(parent):
        stars.setdefault(root(node), []).append(node)
    prototypes: dict[str, str] = {}
    for nodes in stars.values():
        centre = min(nodes, key=lambda n: (len(n) == 1, -degree[n], n))
        prototypes.update((n, centre) for n in nodes if len(n) == 1 and n != centre)
    return prototypes


def _stacked_marks(name: str) -> tuple[str, int] | None:
    """(the letter, its number of marks) of the letter carrying the most combining marks, when
    more than MAX_MARKS; None when none does."""
    worst: tuple[str, int] | None = None
    letter, run = "", 0
    for char in name:
        if unicodedata.category(char) in ("Mn", "Me"):
            run += 1
            if run > MAX_MARKS and (worst is None or run > worst[1]):
                worst = (letter, run)
        else:
            letter, run = char, 0
    return worst


# scripts a name may mix (UTS #39, "highly restrictive"): Japanese, Chinese and Korean with Latin
_MIXES = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}), frozenset({"LATIN", "HAN", "BOPOMOFO"}),
          frozenset({"LATIN", "HAN", "HANGUL"}))
_ANY_SCRIPT = {"COMMON", "INHERITED", "Unknown"}  # digits, spaces, punctuation, combining marks


def _mixed_script(name: str) -> str | None:
    """The first letter of a script the rest of the name is not in (the less used one: the
    Cyrillic « о » of « Lоu »), or None when the name keeps to one script."""
    from confusable_homoglyphs.categories import alias

    scripts = [(char, alias(char)) for char in name]
    used = Counter(script for _, script in scripts if script not in _ANY_SCRIPT)
    if len(used) < 2 or any(set(used) <= mix for mix in _MIXES):
        return None
    main = used.most_common(1)[0][0]
    for char, script in scripts:
        if script not in _ANY_SCRIPT and script != main and not any({main, script} <= mix for mix in _MIXES):
            return char
    return next(char for char, script in scripts if script not in _ANY_SCRIPT and script != main)
