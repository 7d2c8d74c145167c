"""README.md and docs/*.md, parsed (markdown-it, CommonMark with tables) into
what tests/test_docs.py checks: fenced blocks, links, inline code, anchors.

A fenced block is run or checked according to its language (`bash`, `json`,
`toml`; `text` or none: command synopses). An HTML comment right before it
says otherwise:

    <!-- not run: REASON -->         the block cannot run in the test suite
    <!-- output of: COMMAND -->      a JSON block is what COMMAND prints
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
PAGES = (README, *sorted((REPO / "docs").glob("*.md")))
"""Every page a newcomer reads."""

SHELL, JSON, TOML, SYNOPSIS = "shell", "json", "toml", "synopsis"
KINDS = {"bash": SHELL, "sh": SHELL, "shell": SHELL, "json": JSON, "toml": TOML}
KINDS |= {"text": SYNOPSIS, "": SYNOPSIS}
"""Fence language -> how the block is checked; any other language must be marked."""

MARKER = re.compile(r"<!--\s*(?P<what>not run|output of):\s*(?P<value>.*?)\s*-->", re.DOTALL)


@dataclass(frozen=True)
class Located:
    """Something on a line of a page."""

    page: Path
    line: int
    """1-based (a block's opening fence; a span's paragraph)."""

    @property
    def where(self) -> str:
        return f"{shown(self.page)}:{self.line}"


@dataclass(frozen=True)
class Block(Located):
    """One fenced block of a page."""

    language: str
    text: str
    not_run: str | None = None
    """Why it cannot run in the test suite, when it is marked so."""
    output_of: str | None = None
    """The command whose output it shows, when it is marked so."""

    @property
    def kind(self) -> str | None:
        """How the block is checked (SHELL, JSON, TOML, SYNOPSIS), None if unknown."""
        return KINDS.get(self.language)


@dataclass(frozen=True)
class Span(Located):
    """A link target or an inline code span."""

    text: str


@dataclass(frozen=True)
class Page:
    """What the checks need of one markdown page."""

    path: Path
    blocks: tuple[Block, ...]
    links: tuple[Span, ...]
    code: tuple[Span, ...]
    """Inline code spans."""
    anchors: frozenset[str]
    """The fragment of each heading, as GitHub makes them."""
    stray_markers: tuple[Span, ...]
    """Marker comments that precede no fenced block (a typo, or a moved block)."""


def shown(path: Path) -> Path:
    """`path` as a message names it: relative to the repository when inside it."""
    return path.relative_to(REPO) if path.is_relative_to(REPO) else path


@cache
def page(path: Path) -> Page:
    """`path` parsed."""
    tokens = MarkdownIt("commonmark").enable("table").parse(path.read_text())
    blocks: list[Block] = []
    links: list[Span] = []
    code: list[Span] = []
    headings: list[str] = []
    stray: list[Span] = []
    for index, token in enumerate(tokens):
        line = token.map[0] + 1 if token.map else 0
        if token.type == "fence":
            marker = _marker(tokens[index - 1]) if index else None
            what, value = marker or (None, None)
            language = token.info.split()[0] if token.info.strip() else ""
            blocks.append(
                Block(
                    path,
                    line,
                    language,
                    token.content,
                    not_run=value if what == "not run" else None,
                    output_of=value if what == "output of" else None,
                )
            )
        elif token.type == "html_block" and MARKER.search(token.content):
            following = tokens[index + 1].type if index + 1 < len(tokens) else None
            if following != "fence" or _marker(token) is None:
                stray.append(Span(path, line, token.content.strip()))
        elif token.type == "inline":
            if index and tokens[index - 1].type == "heading_open":
                headings.append(_plain(token))
            for child in token.children or ():
                if child.type == "link_open":
                    links.append(Span(path, line, str(child.attrGet("href"))))
                elif child.type == "code_inline":
                    code.append(Span(path, line, child.content))
    return Page(path, tuple(blocks), tuple(links), tuple(code), _anchors(headings), tuple(stray))


def _marker(token: Token) -> tuple[str, str] | None:
    """(what, value) of a marker comment, when `token` is one."""
    if token.type != "html_block":
        return None
    found = MARKER.fullmatch(token.content.strip())
    return (found["what"], found["value"]) if found else None


def _plain(inline: Token) -> str:
    """A heading's text as it reads (code spans without their backticks)."""
    return "".join(c.content for c in inline.children or () if c.type in {"text", "code_inline"})


def _anchors(headings: list[str]) -> frozenset[str]:
    """GitHub's fragments: lower case, punctuation but `-` and `_` dropped, spaces
    made `-`; a repeated one gets `-1`, `-2`, ..."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in headings:
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return frozenset(anchors)
