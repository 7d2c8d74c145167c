"""Symbols followed through history across moves to other files: moved first and renamed
later, moved and renamed in one commit, a class moved and then renamed with its member
anchored too. One repository built commit by commit, memories anchored at its first
commit and checked in one run at every later commit."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from memory.check import check_memories
from memory.model import Memory, RefCheck
from memory.views import MemoryCheckView, memory_check
from memory.workspace import Workspace
from tests.memory.conftest import Repo

pytestmark = pytest.mark.store_specific  # no store: the check alone

TEXT = '''"""Text helpers."""


def wrap_words(text, width):
    lines, line = [], ""
    for word in text.split():
        if len(line) + len(word) + 1 > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line]


def shorten(text, limit, marker="..."):
    if len(text) <= limit:
        return text
    cut = text[: limit - len(marker)].rstrip()
    return cut + marker
'''

SHAPES = '''class Box:
    """A box on the page."""

    def __init__(self, width, height):
        self.width = width
        self.height = height

    def area(self):
        return self.width * self.height

    def scaled(self, factor):
        return Box(self.width * factor, self.height * factor)
'''

GEOMETRY = '''"""Geometry."""


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def moved(self, dx, dy):
        return Point(self.x + dx, self.y + dy)
'''

FORMATTING = '''"""Formatting."""


def indent(lines, prefix="    "):
    return [prefix + line for line in lines]
'''

CONFIG = """class Loader:
    def __init__(self, path):
        self.path = path

    def read(self):
        with open(self.path) as handle:
            return handle.read()
"""

REFS = {
    "wrap": "pkg/text.py#wrap_words",
    "shorten": "pkg/text.py#shorten",
    "box": "pkg/shapes.py#Box",
    "area": "pkg/shapes.py#Box.area",
    "indent": "pkg/formatting.py#indent",
    "loader": "pkg/config.py#Loader",
    "read": "pkg/config.py#Loader.read",
}


@dataclass
class Moves:
    repo: Repo
    commits: dict[str, str]
    memories: list[Memory]

    def check(self, step: str, dest: Path) -> dict[str, RefCheck]:
        """Every memory checked in one run at `step`'s commit, by key."""
        clone = self.repo.clone(dest)
        clone.git("checkout", "-q", self.commits[step])
        results = check_memories(Workspace(clone.root), self.memories)
        for result in results:
            TypeAdapter(MemoryCheckView).validate_python(memory_check(result), strict=True)
        return {r.memory.id.removeprefix("m-"): r.refs[0] for r in results}


@pytest.fixture(scope="module")
def moves(tmp_path_factory: pytest.TempPathFactory) -> Moves:
    repo = Repo(tmp_path_factory.mktemp("moves") / "repo")
    repo.root.mkdir()
    repo.git("init", "-q", "-b", "main")
    repo.write("pkg/text.py", TEXT)
    repo.write("pkg/shapes.py", SHAPES)
    repo.write("pkg/geometry.py", GEOMETRY)
    repo.write("pkg/formatting.py", FORMATTING)
    repo.write("pkg/config.py", CONFIG)
    commits: dict[str, str] = {}

    def step(name: str, message: str) -> None:
        repo.commit(message)
        commits[name] = repo.git("rev-parse", "HEAD").strip()

    step("start", "start")
    memories = [
        replace(repo.remember(ref), id=f"m-{key}", text=f"a note on {key}")
        for key, ref in REFS.items()
    ]
    wrap = TEXT[TEXT.index("def wrap_words") : TEXT.index("def shorten")]
    short = TEXT[TEXT.index("def shorten") :]
    repo.write("pkg/text.py", TEXT.replace(wrap, ""))
    repo.write("pkg/formatting.py", f"{FORMATTING}\n\n{wrap.rstrip()}\n")
    repo.git("rm", "-q", "pkg/shapes.py")
    repo.write("pkg/geometry.py", f"{GEOMETRY}\n\n{SHAPES}")
    step("extract", "Move wrap_words to formatting.py and Box to geometry.py")
    repo.write(
        "pkg/formatting.py",
        repo.read("pkg/formatting.py")
        .replace("def wrap_words(text, width):", "def fold_lines(text, width=72):")
        .replace("    return [*lines, line]", "    return [*lines, line] if line else lines"),
    )
    repo.write(
        "pkg/geometry.py",
        repo.read("pkg/geometry.py")
        .replace("class Box:", "class Rect:")
        .replace("return Box(", "return Rect(")
        .replace("A box on", "A rectangle on"),
    )
    step("renamed", "wrap_words is fold_lines; Box is Rect")
    repo.write("pkg/text.py", repo.read("pkg/text.py").replace(short, ""))
    repo.write(
        "pkg/limits.py",
        f'"""Limits."""\n\n\n{short.replace("def shorten", "def truncate").rstrip()}\n',
    )
    step("truncate", "shorten becomes truncate in limits.py")
    repo.git("mv", "pkg/config.py", "pkg/settings.py")
    step("settings", "config.py is settings.py")
    extra = "".join(
        f"\n\ndef option_{i}(values):\n    return values.get('{i}')\n" for i in range(12)
    )
    repo.write(
        "pkg/settings.py",
        CONFIG.replace(
            CONFIG[CONFIG.index("        with open") :],
            "        fetched = fetch_all(self.path, retries=3, timeout=10.0)\n"
            "        self.cache.setdefault(self.path, fetched)\n"
            '        return json.loads(self.cache[self.path] or "{}")\n',
        )
        + extra,
    )
    step("rewrite", "Loader.read fetches and caches; one function per option")
    repo.write(
        "pkg/formatting.py",
        repo.read("pkg/formatting.py").replace(
            'def indent(lines, prefix="    "):\n    return [prefix + line for line in lines]',
            'class Formatter:\n    def indent_lines(self, lines, prefix="    "):\n'
            "        return [prefix + line for line in lines]",
        ),
    )
    step("method", "indent is Formatter.indent_lines")
    return Moves(repo, commits, memories)


def test_a_file_moved_then_rewritten_is_followed_through_the_commits_in_between(
    moves: Moves, tmp_path: Path
) -> None:
    found = moves.check("rewrite", tmp_path / "head")
    loader, read = found["loader"], found["read"]
    assert (loader.status, _at(loader)) == ("modified", "pkg/settings.py#Loader")
    assert (read.status, _at(read)) == ("modified", "pkg/settings.py#Loader.read")
    assert read.change is not None and read.change.kind == "body"


def test_a_function_that_became_a_method_under_another_name_is_followed(
    moves: Moves, tmp_path: Path
) -> None:
    ref = moves.check("method", tmp_path / "head")["indent"]
    assert (ref.status, ref.reason, _at(ref)) == (
        "modified",
        "renamed_with_edits",
        "pkg/formatting.py#Formatter.indent_lines",
    )
    assert ref.since is not None and ref.since.commit == moves.commits["method"]


def _at(ref: RefCheck) -> str | None:
    return None if ref.place is None else f"{ref.place.path}#{ref.place.symbol}"


def test_a_function_moved_to_another_file_and_renamed_there_later_is_followed(
    moves: Moves, tmp_path: Path
) -> None:
    moved = moves.check("extract", tmp_path / "extract")["wrap"]
    assert (moved.status, moved.reason, _at(moved)) == (
        "relocated",
        "moved_to_other_file",
        "pkg/formatting.py#wrap_words",
    )
    ref = moves.check("truncate", tmp_path / "head")["wrap"]
    assert (ref.status, ref.reason, _at(ref)) == (
        "modified",
        "renamed_with_edits",
        "pkg/formatting.py#fold_lines",
    )
    assert ref.since is not None and ref.since.commit == moves.commits["renamed"]
    assert ref.change is not None and ref.change.kind == "signature"


def test_a_function_moved_and_renamed_in_one_commit_is_followed(
    moves: Moves, tmp_path: Path
) -> None:
    ref = moves.check("truncate", tmp_path / "head")["shorten"]
    assert (ref.status, ref.reason, _at(ref)) == (
        "renamed",
        "same_body_new_name",
        "pkg/limits.py#truncate",
    )
    assert ref.since is not None and ref.since.commit == moves.commits["truncate"]
    assert ref.since.subject == "shorten becomes truncate in limits.py"


def test_a_class_moved_then_renamed_and_its_member_tell_one_story(
    moves: Moves, tmp_path: Path
) -> None:
    found = moves.check("truncate", tmp_path / "head")
    box, area = found["box"], found["area"]
    assert (box.status, box.reason, _at(box)) == (
        "modified",
        "renamed_with_edits",
        "pkg/geometry.py#Rect",
    )
    assert (area.status, area.reason, _at(area)) == (
        "relocated",
        "moved_to_other_file",
        "pkg/geometry.py#Rect.area",
    )
    assert box.since == area.since
    assert box.since is not None and box.since.commit == moves.commits["renamed"]
    assert any("Box was renamed to Rect in pkg/geometry.py" in w for w in area.warnings)


TASKS = '''"""Tasks."""

import os

DEFAULT = "all"


def test(ctx):
    flake(ctx)
    ctx.run("pytest")


def flake(ctx):
    """Run flake8 on the code."""
    ctx.run("flake8 .", echo=True)
'''


def test_a_rename_on_a_side_branch_is_followed_past_branches_merged_around_it(
    repo: Repo,
) -> None:
    repo.write("tasks.py", TASKS.replace("    flake(ctx)\n", ""))
    repo.commit("tasks without flake")
    repo.git("branch", "early")  # forked before flake existed; touches tasks.py later
    repo.write("tasks.py", TASKS)
    repo.commit("flake task")
    repo.git("branch", "side")
    repo.git("branch", "tox")
    repo.write("README", "read me\n")
    repo.commit("readme")
    memory = repo.remember("tasks.py#flake")
    repo.git("checkout", "-q", "early")
    repo.write("tasks.py", TASKS.replace("    flake(ctx)\n", "").replace("Tasks.", "Dev tasks."))
    repo.commit("say what the tasks are for")
    repo.git("checkout", "-q", "side")
    repo.write(
        "tasks.py",
        TASKS.replace("flake(ctx)", "syntax(ctx)")
        .replace("def flake(ctx):", "def syntax(ctx):")
        .replace('ctx.run("flake8 .", echo=True)', 'ctx.run("pre-commit run", echo=True)'),
    )
    repo.commit("flake is syntax: pre-commit runs it")
    renamed = repo.git("rev-parse", "HEAD").strip()
    repo.git("checkout", "-q", "tox")
    repo.git("rm", "-q", "tasks.py")
    repo.commit("tox runs the tasks")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-edit", "side")
    repo.git("merge", "-q", "--no-edit", "early")
    with pytest.raises(subprocess.CalledProcessError):  # tox deleted what main changed
        repo.git("merge", "-q", "--no-edit", "tox")
    repo.git("add", "tasks.py")  # the merge keeps it
    repo.git("commit", "-q", "--no-edit")
    assert "syntax" in repo.read("tasks.py") and "Dev tasks." in repo.read("tasks.py")
    ref = repo.check_ref(memory)
    assert (ref.status, ref.reason) == ("modified", "renamed_with_edits")
    assert ref.place is not None and (ref.place.path, ref.place.symbol) == ("tasks.py", "syntax")
    assert ref.since is not None and ref.since.commit == renamed


def test_a_one_liner_removed_is_not_taken_for_another_added_in_its_commit(repo: Repo) -> None:
    compat = (
        'import re\n\nWORD = re.compile(r"\\w+")\n\n\n'
        "def is_word(x):\n    return WORD.search(x) is not None\n"
    )
    repo.write("compat.py", compat)
    repo.commit("compat")
    memory = repo.remember("compat.py#is_word")
    repo.write(
        "compat.py",
        compat.replace(
            "def is_word(x):\n    return WORD.search(x) is not None",
            "def console_stream(f, encoding, errors):\n    return None",
        ),
    )
    repo.commit("drop py2 helpers; no console stream here")
    ref = repo.check_ref(memory)
    assert (ref.status, ref.reason, ref.place) == ("deleted", "symbol_not_found", None)
