"""What README.md and docs/*.md say runs as written.

Every fenced block is run or checked (tests/docs/run.py says how, by kind) in
a scratch copy of the bundled example, unless it is marked
`<!-- not run: reason -->`; and every block not so marked must have been run,
so nothing escapes silently. Commands named in the text must exist, files of
the repository named in it too, and every relative link must resolve to a file
and, with a fragment, to a heading of it.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.conftest import require_binary
from tests.docs.pages import PAGES, README, REPO, page
from tests.docs.run import Ran, run_page
from tests.docs.synopsis import command_problems

RUN_TIMEOUT_S = 110.0
IDS = [path.relative_to(REPO).as_posix() for path in PAGES]
REPO_FILE = re.compile(r"(bridge|verify|memory|map|lsp|disk|tests|scripts|docs)/[\w./-]*\.[a-z]+")
"""A file of this repository named in the text (`lsp/catalog.py`)."""
SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Ran]:
    """Every page's run, side by side (each in its own scratch copy): most of the
    time goes to starting processes and language servers."""
    require_binary("ty")  # the nav examples ask a live server

    async def run_all() -> list[Ran | BaseException]:
        pending = (run_page(page(path), tmp_path_factory.mktemp(path.stem)) for path in PAGES)
        async with asyncio.timeout(RUN_TIMEOUT_S):
            return await asyncio.gather(*pending, return_exceptions=True)

    done = dict(zip(PAGES, asyncio.run(run_all()), strict=True))
    return {path: _as_ran(result) for path, result in done.items()}


def _as_ran(result: Ran | BaseException) -> Ran:
    """A page run that raised, as a run with that problem."""
    if isinstance(result, Ran):
        return result
    return Ran(problems=[f"the run stopped: {result!r}"])


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_every_example_runs_as_written(path: Path, runs: dict[Path, Ran]) -> None:
    result = runs[path]
    assert result.problems == []
    unmarked = [block.where for block in page(path).blocks if block.not_run is None]
    assert [block.where for block in result.checked] == unmarked


def test_the_readme_tools_table_lists_what_the_server_serves(runs: dict[Path, Ran]) -> None:
    section = README.read_text().split("\n### Tools\n", 1)[1].split("\n#", 1)[0]
    rows = [row.split("|")[1] for row in section.splitlines() if row.startswith("| `")]
    listed = {name for cell in rows for name in re.findall(r"`(\w+)`", cell)}
    assert listed == runs[README].served_tools


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_every_marker_marks_a_block(path: Path) -> None:
    assert page(path).stray_markers == ()


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_relative_links_resolve(path: Path) -> None:
    broken = []
    for link in page(path).links:
        if SCHEME.match(link.text):
            continue
        name, _, fragment = link.text.partition("#")
        target = (path.parent / name).resolve() if name else path
        if not target.exists():
            broken.append(f"{link.where}: {link.text}: no such file")
        elif fragment and target.suffix == ".md" and fragment not in page(target).anchors:
            broken.append(f"{link.where}: {link.text}: no such heading")
    assert broken == []


@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_commands_and_files_named_in_the_text_exist(path: Path) -> None:
    problems = []
    for span in page(path).code:
        if span.text.startswith("codeanchor "):
            problems += [f"{span.where}: {p}" for p in command_problems(span.text)]
        elif REPO_FILE.fullmatch(span.text) and not (REPO / span.text).exists():
            problems.append(f"{span.where}: {span.text} is not in the repository")
    assert problems == []
