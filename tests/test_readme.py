"""README.md is the front door: at most 250 lines, its set-up section shows exactly the two commands a
fresh machine needs (one runs the app, one runs the tests), and every relative link of README.md and
docs/*.md leads to a file that exists (and, with a #fragment into a Markdown file, to one of its
headings). The details live in docs/ (benchmarks, LAN mode, a club's server, the command line)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_LINES = 250
SETUP_COMMANDS = ["bash scripts/run", "bash scripts/test"]

FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
INDENTED = re.compile(r"(?:^(?: {4}|\t).*\n?)+", re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}[ \t]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"README.md has no '## {title}' section"
    return match.group(1)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = CODE_SPAN.sub(lambda m: m.group()[1:-1], heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} +(.+?)[ \t#]*$", text, re.M)}


def _links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = CODE_SPAN.sub("", INDENTED.sub("", FENCE.sub("", text)))
    return LINK.findall(text)


def test_the_readme_is_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LINES, (f"README.md has {len(lines)} lines (at most {MAX_LINES}): move details "
                                     "to docs/ and link them")


def test_the_set_up_section_shows_exactly_the_two_commands():
    section = _section(README.read_text(encoding="utf-8"), "Set up on a fresh machine")
    blocks = [block.strip("`").split("\n", 1)[1].strip() for block in FENCE.findall(section)]
    assert blocks == SETUP_COMMANDS, f"the set-up section's commands: {blocks}"
    # no other command hides in its prose either
    spans = [span.strip("`") for span in CODE_SPAN.findall(FENCE.sub("", section))]
    commands = [span for span in spans if span.startswith(("bash ", ".venv/", "companion ", "pip ", "python"))
                or "scripts/" in span]
    assert commands == [], f"the set-up section shows other commands: {commands}"


@pytest.mark.parametrize("doc", [README, *sorted((ROOT / "docs").glob("*.md"))],
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_that_exists(doc):
    broken = []
    for target in _links(doc):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:…
            continue
        file, _, fragment = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists():
            broken.append(target)
        elif fragment and path.suffix == ".md" and fragment.lower() not in _anchors(path):
            broken.append(target)
    assert broken == [], f"{doc.relative_to(ROOT)}: links to nothing: {broken}"


def test_the_link_checker_sees_a_broken_link(tmp_path):
    """The check above can fail: a link to a missing file or heading is found, code is not read as links."""
    doc = tmp_path / "doc.md"
    doc.write_text("# Title\n\n[gone](missing.md) [here](#title) [nowhere](#nope) `[x](code.md)`\n\n"
                   "```\n[y](fenced.md)\n```\n", encoding="utf-8")
    assert _links(doc) == ["missing.md", "#title", "#nope"]
    assert _anchors(doc) == {"title"}
