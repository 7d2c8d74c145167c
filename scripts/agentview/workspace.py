"""One project as the benchmark sees it: a scratch clone, its symbols as the map
lists them over MCP (map_outline), the tree-sitter ground truth, and the
symbols that truth can judge (accuracy.sample's rules)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from accuracy.sample import Declared, Symbol, judgeable
from accuracy.truth import Truth

from agentview.session import Session
from agentview.source import Sources
from map.extraction.languages import language_for
from tests.gitrepo import git

WHOLE_BUDGET = 50_000
"""The largest budget a tool accepts: what the benchmark asks when it wants all."""


class SurveyError(Exception):
    """The project's symbols could not be listed over MCP."""


@dataclass
class Workspace:
    """The scratch project, its truth and its judgeable symbols."""

    language: str
    root: Path
    sources: Sources
    truth: Truth
    files: list[str]
    declared: list[Declared]
    symbols: list[Symbol]
    head: str
    """The commit the scratch clone started at (restored after edits)."""
    seed: int

    def ranked(self, items: list[Symbol], salt: str) -> list[Symbol]:
        """`items` in a seeded order that does not depend on the other items (so a
        run on other code asks about the same symbols where it can)."""
        return sorted(
            items,
            key=lambda s: hashlib.sha256(f"{self.seed}:{salt}:{s.node_id}".encode()).digest(),
        )

    def enclosing(self, path: str, line: int) -> str:
        """The innermost declared symbol around `path:line`, else the file: the
        node a caller at that line is (as accuracy.measure.map_node_at)."""
        around = [
            (d.lines[1] - d.lines[0], d.node_id)
            for d in self.declared
            if d.path == path and d.lines[0] <= line <= d.lines[1]
        ]
        return min(around)[1] if around else path

    def by_id(self, node_id: str) -> Declared | None:
        """The declared symbol with that node ID."""
        return next((d for d in self.declared if d.node_id == node_id), None)

    def reset(self) -> None:
        """Put the work tree back at the starting commit (untracked files, such as
        the memory store, are kept)."""
        git(self.root, "reset", "-q", "--hard", self.head)


def scratch_clone(corpus: Path, dest: Path) -> Path:
    """A private clone of the cached corpus: edits and the map store land there."""
    git(dest.parent, "clone", "-q", str(corpus), str(dest))
    return dest


async def open_workspace(session: Session, root: Path, language: str, seed: int) -> Workspace:
    """List the language's files and their symbols (map_outline), and judge them."""
    files = _files(root, language)
    sources = Sources(root, language)
    declared: list[Declared] = []
    for path in files:
        answer = await session.ask("map_outline", path=path, budget=WHOLE_BUDGET)
        if not answer.ok:
            raise SurveyError(f"map_outline {path}: {answer.error}")
        for entry in answer.data.get("symbols", []):
            declared.append(_declared(sources, path, entry))
    if language == "c":
        declared = _without_prototypes(sources, declared)
    truth = Truth(root, language)
    head = git(root, "rev-parse", "HEAD").strip()
    symbols = judgeable(declared, truth)
    return Workspace(language, root, sources, truth, files, declared, symbols, head, seed)


def _files(root: Path, language: str) -> list[str]:
    """The project's files of `language`, relative to the root."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file()
        and ".git" not in p.parts
        and ".codeanchor" not in p.parts
        and language_for(p.name) == language
    )


def _declared(sources: Sources, path: str, entry: dict[str, object]) -> Declared:
    node_id = str(entry["nodeId"])
    qualified = re.sub(r"~\d+$", "", node_id.partition("#")[2])
    outer, _, name = qualified.rpartition(".")
    first, last = entry["lines"]  # type: ignore[misc]
    lines = (int(first), int(last))
    return Declared(
        node_id,
        str(entry["kind"]),
        name,
        path,
        outer.rpartition(".")[2],
        lines,
        sources.name_line(path, name, lines),
    )


def _without_prototypes(sources: Sources, declared: list[Declared]) -> list[Declared]:
    """C: a prototype is not a second symbol of its name when a definition exists
    (the truth judges the definition; its callers are the definition's)."""
    defined = {d.name for d in declared if not sources.is_prototype(d.path, d.name, d.lines)}
    return [
        d
        for d in declared
        if d.name not in defined or not sources.is_prototype(d.path, d.name, d.lines)
    ]
