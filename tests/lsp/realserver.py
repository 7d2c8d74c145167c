"""For the real-server tests: patient settings, outside edits to a fixture copy,
result shapes to compare, and the tests every real-server module shares
(`RealServerTests`, run on each module's `Case`)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import ClassVar

import pytest

from lsp.model import Location
from lsp.settings import LiveSettings
from tests.lsp.conftest import Live, line_of, open_live, position_of

# The machine running the tests may be busy (tsserver took 8.5 s to load the
# two-file fixture at load average 9 on 2 cores): a cold start that outlasts
# the default deadline would pass a partial answer on and fail the test.
PATIENT = LiveSettings(request_timeout=30.0, cold_start_deadline=60.0)


def places(found: list[Location]) -> set[tuple[str, int]]:
    """(path, 1-based line) of each location."""
    return {(loc.path, loc.line) for loc in found}


def write(root: Path, path: str, text: str) -> None:
    """Write a file the way another tool would (no editor, no notification)."""
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


@contextlib.contextmanager
def outside_file(root: Path, path: str, text: str) -> Iterator[None]:
    """A file another tool writes, removed again after: the fixture copy is left
    as it was found."""
    write(root, path, text)
    try:
        yield
    finally:
        (root / path).unlink(missing_ok=True)


@contextlib.contextmanager
def put_back(root: Path, *paths: str) -> Iterator[None]:
    """Whatever is done to the files at `paths` inside, their text is put back after."""
    before = {path: (root / path).read_text(encoding="utf-8") for path in paths}
    try:
        yield
    finally:
        for path, text in before.items():
            write(root, path, text)


def insert_lines_at_top(root: Path, path: str, count: int, comment: str) -> None:
    """Put `count` comment lines (`comment` is the language's line-comment marker) first."""
    lines = "".join(f"{comment} inserted line {n}\n" for n in range(count))
    write(root, path, lines + (root / path).read_text(encoding="utf-8"))


def rewrite_keeping_mtime(root: Path, path: str, text: str) -> None:
    """Replace a file's text with the same number of bytes and put its mtime back,
    as `cp -p` or `rsync -t` leave it: only ctime and content tell the change."""
    target = root / path
    before = target.stat()
    target.write_text(text, encoding="utf-8")
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = target.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def two_functions(first: str, second: str) -> tuple[str, str]:
    """A text holding `first` then `second`, and the same bytes in the other order."""
    return f"{first}\n{second}", f"{second}\n{first}"


@dataclass(frozen=True)
class Spot:
    """The first `needle` after the first `after` in the fixture file `path`."""

    path: str
    needle: str
    after: str = ""

    def position(self, root: Path) -> tuple[int, int]:
        """The LSP position (0-based line, UTF-16 column)."""
        return position_of(root, self.path, self.needle, after=self.after)

    def at(self, root: Path) -> tuple[str, int, int]:
        """Path, line and column: the arguments of a query at this spot."""
        return (self.path, *self.position(root))

    def place(self, root: Path) -> tuple[str, int]:
        """(path, 1-based line), as `places` gives a location."""
        return self.path, line_of(root, self.path, self.needle, after=self.after)


@dataclass(frozen=True)
class CallerFiles:
    """Files another tool writes into the fixture: `<folder><name><suffix>`, starting
    with `head`, whose function `name` calls the function the tests query."""

    folder: str
    suffix: str
    head: str
    calling: Template
    """A function `$name` that calls the queried function as `call`."""
    call: str
    idle: str
    """A function that calls nothing."""

    def function(self, name: str) -> str:
        return self.calling.substitute(name=name)

    def call_in(self, name: str) -> Spot:
        """Where the file of function `name` calls the queried function."""
        return Spot(f"{self.folder}{name}{self.suffix}", self.call)


@dataclass(frozen=True)
class Case:
    """What a fixture holds for the shared tests: a function declared at `decl` and
    called at `call`, from a function named `caller`, in another file."""

    fixture: str
    language: str
    server: str
    decl: Spot
    call: Spot
    caller: str
    definition_text: str
    """Shown on the line a definition query lands on."""
    hover_shows: tuple[str, ...]
    workspace_symbol: tuple[str, str]
    """A name to search for, and the file that declares it."""
    outside: CallerFiles
    hover_hides: tuple[str, ...] = ()

    @contextlib.contextmanager
    def open(self, factory: pytest.TempPathFactory) -> Iterator[Live]:
        """A patient pool over a fresh copy of the fixture."""
        dest = factory.mktemp(self.language)
        with open_live(
            self.fixture, dest, language=self.language, server=self.server, settings=PATIENT
        ) as live:
            yield live


class RealServerTests:
    """The tests every real-server module runs alike, on its `case`.

    A module subclasses this as `Test<Server>`, sets `case`, and provides a
    module-scoped `live` fixture. Each test puts back what it edits outside
    (`outside_file`, `put_back`), so these and the module's own tests pass in any
    order.
    """

    case: ClassVar[Case]

    def references(self, live: Live) -> set[tuple[str, int]]:
        """Places of the references to the declared function."""
        return places(live.run(live.pool.references(*self.case.decl.at(live.root))))

    def test_definition_of_a_call_is_the_declared_function(self, live: Live) -> None:
        found = live.run(live.pool.definition(*self.case.call.at(live.root)))
        assert places(found) == {self.case.decl.place(live.root)}
        assert self.case.definition_text in found[0].text

    def test_hover_shows_the_signature_and_the_doc_comment(self, live: Live) -> None:
        info = live.run(live.pool.hover(*self.case.call.at(live.root)))
        assert info is not None
        assert [text for text in self.case.hover_shows if text not in info.contents] == []
        assert [text for text in self.case.hover_hides if text in info.contents] == []

    def test_workspace_symbols_find_a_function_by_name(self, live: Live) -> None:
        name, path = self.case.workspace_symbol
        # One file of the language open first, as the bridge does (a fresh tsserver has
        # no project, and refuses workspace/symbol, until one is): so in any order.
        live.run(live.pool.prime([self.case.decl.path]))
        found = live.run(live.pool.workspace_symbols(name, language=self.case.language))
        assert (name, path) in {(s.name, s.location.path) for s in found}

    def test_incoming_calls_name_the_caller_and_where_it_calls(self, live: Live) -> None:
        case = self.case
        callers = live.run(live.pool.incoming_calls(*case.decl.at(live.root)))
        assert [(s.name, s.location.path) for s in callers] == [(case.caller, case.call.path)]
        assert {span.start_line for span in callers[0].call_spans} == {
            case.call.position(live.root)[0]
        }

    def test_lines_inserted_on_disk_shift_answers_at_once(self, live: Live) -> None:
        case, root = self.case, live.root
        with put_back(root, case.decl.path, case.call.path):
            insert_lines_at_top(root, case.decl.path, 5, "//")
            insert_lines_at_top(root, case.call.path, 5, "//")
            found = live.run(live.pool.definition(*case.call.at(root)))
            assert places(found) == {case.decl.place(root)}
            assert case.call.place(root) in self.references(live)
            callers = live.run(live.pool.incoming_calls(*case.decl.at(root)))
            assert {span.start_line for s in callers for span in s.call_spans} == {
                case.call.position(root)[0]
            }

    def test_a_new_file_never_opened_shows_up_in_references_and_callers(self, live: Live) -> None:
        case, root = self.case, live.root
        extra = case.outside.call_in("extra")
        with outside_file(root, extra.path, case.outside.head + case.outside.function("extra")):
            assert extra.place(root) in self.references(live)
            callers = live.run(live.pool.incoming_calls(*case.decl.at(root)))
            assert {(s.name, s.location.path) for s in callers} == {
                ("extra", extra.path),
                (case.caller, case.call.path),
            }

    def test_a_deleted_file_is_gone_from_references(self, live: Live) -> None:
        outside, root = self.case.outside, live.root
        gone = outside.call_in("gone")
        with outside_file(root, gone.path, outside.head + outside.function("gone")):
            assert gone.place(root) in self.references(live)
            (root / gone.path).unlink()
            assert gone.path not in {path for path, _ in self.references(live)}

    def test_an_edit_that_keeps_size_and_mtime_is_seen(self, live: Live) -> None:
        outside, root = self.case.outside, live.root
        more = outside.call_in("more")
        before, after = two_functions(outside.function("more"), outside.idle)
        with outside_file(root, more.path, outside.head + before):
            assert more.place(root) in self.references(live)
            rewrite_keeping_mtime(root, more.path, outside.head + after)
            assert more.place(root) in self.references(live)
