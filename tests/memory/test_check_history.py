"""Renames followed through git history, and what kind of change a modified reference went
through: one repository built commit by commit, memories anchored at its first commit and
checked across the whole range."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from memory.check import check_memories
from memory.model import CheckSettings, Memory, MemoryCheck, RefCheck
from memory.views import MemoryCheckView, memory_check, ref_line
from memory.workspace import Workspace
from tests.memory.conftest import Repo

pytestmark = pytest.mark.store_specific  # no store: the check alone

LOADER = '''"""Loading."""


def load_from_file(path, encoding):
    with open(path, encoding=encoding) as handle:
        text = handle.read()
    lines = text.splitlines()
    return [line.strip() for line in lines if line.strip()]


def keep(value):
    return value
'''

RENDER = '''class RenderGroup:
    """Renderables shown together."""

    def __init__(self, *renderables, fit=True):
        self.renderables = list(renderables)
        self.fit = fit

    def render(self, console):
        for item in self.renderables:
            yield from console.render(item)

    def measure(self, console):
        widths = [console.measure(r) for r in self.renderables]
        return max(widths, default=0)
'''

UNITS = '''def convert(value, factor=1.0):
    scaled = value * factor
    return round(scaled, 3)


def describe(value):
    """Say what the value is."""
    return f"{value:.3f} units"
'''

PAIRS = """def split_pairs(text):
    pairs = []
    for chunk in text.split(";"):
        key, _, value = chunk.partition("=")
        pairs.append((key.strip(), value.strip()))
    return pairs


def join_pairs(pairs):
    return ";".join(f"{key}={value}" for key, value in pairs)
"""

RANGES = '''class NumberRange(RangeBase):
    """A range of numbers."""

    def clamp(self, value):
        for (low, high) in self.bounds:
            value = max(low, min(high, (value)))
        return value
'''

REFS = {
    "load": "pkg/loader.py#load_from_file",
    "keep": "pkg/loader.py#keep",
    "group": "pkg/render.py#RenderGroup",
    "init": "pkg/render.py#RenderGroup.__init__",
    "render": "pkg/render.py#RenderGroup.render",
    "convert": "pkg/units.py#convert",
    "describe": "pkg/units.py#describe",
    "pairs": "pkg/pairs.py#split_pairs",
    "range": "pkg/ranges.py#NumberRange",
    "clamp": "pkg/ranges.py#NumberRange.clamp",
}


@dataclass
class History:
    """The repository, its commits by step name, and one memory per reference."""

    repo: Repo
    commits: dict[str, str]
    memories: dict[str, Memory]

    def at(self, step: str, dest: Path) -> Repo:
        """A clone checked out at `step`'s commit."""
        clone = self.repo.clone(dest)
        clone.git("checkout", "-q", self.commits[step])
        return clone


def _step(repo: Repo, commits: dict[str, str], name: str, message: str) -> None:
    repo.commit(message)
    commits[name] = repo.git("rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> History:
    repo = Repo(tmp_path_factory.mktemp("history") / "repo")
    repo.root.mkdir()
    repo.git("init", "-q", "-b", "main")
    commits: dict[str, str] = {}
    for path, text in [
        ("pkg/loader.py", LOADER),
        ("pkg/render.py", RENDER),
        ("pkg/units.py", UNITS),
        ("pkg/pairs.py", PAIRS),
        ("pkg/ranges.py", RANGES),
    ]:
        repo.write(path, text)
    _step(repo, commits, "start", "start")
    memories = {
        key: replace(repo.remember(ref), id=f"m-{key}", text=f"a note on {key}")
        for key, ref in REFS.items()
    }
    repo.write(
        "pkg/loader.py",
        LOADER.replace("load_from_file(path, encoding)", 'load_from_path(path, encoding="utf-8")'),
    )
    _step(repo, commits, "load", "Rename load_from_file to load_from_path, utf-8 by default")
    repo.write("pkg/notes.txt", "unrelated\n")
    _step(repo, commits, "filler", "notes")
    repo.write(
        "pkg/render.py",
        RENDER.replace("class RenderGroup:", "class Group:")
        .replace("fit=True):", "fit=True, pad=0):")
        .replace("self.fit = fit\n", "self.fit = fit\n        self.pad = pad\n"),
    )
    _step(repo, commits, "group", "RenderGroup is Group now; it pads")
    repo.write(
        "pkg/units.py",
        UNITS.replace(
            "convert(value, factor=1.0):", "convert(value: float, factor: float = 1.0) -> float:"
        ).replace("    scaled = value", "    scaled: float = value"),
    )
    _step(repo, commits, "hints", "Type hints on convert")
    repo.write("pkg/units.py", repo.read("pkg/units.py").replace("Say what", "Describe what"))
    _step(repo, commits, "docstring", "Reword describe's docstring")
    repo.write(
        "pkg/pairs.py",
        PAIRS.replace("def split_pairs", "def parse_pairs").replace(
            "        key, _, value",
            "        if not chunk.strip():\n            continue\n        key, _, value",
        ),
    )
    _step(repo, commits, "pairs", "split_pairs becomes parse_pairs and skips empty chunks")
    repo.git("mv", "pkg/pairs.py", "pkg/formats.py")
    _step(repo, commits, "moved", "pairs.py is formats.py")
    repo.write(
        "pkg/ranges.py",
        RANGES.replace("(RangeBase)", "(RangeBase[int, int])")
        .replace("for (low, high) in", "for low, high in")
        .replace("(value)))", "value))"),
    )
    _step(repo, commits, "generic", "NumberRange is generic; black drops brackets")
    return History(repo, commits, memories)


def _check(
    where: Repo, history: History, settings: CheckSettings | None = None
) -> dict[str, MemoryCheck]:
    """Every memory checked in one run, by key; each answer as the contract publishes it."""
    results = check_memories(
        Workspace(where.root), list(history.memories.values()), settings=settings or CheckSettings()
    )
    for result in results:
        TypeAdapter(MemoryCheckView).validate_python(memory_check(result), strict=True)
    return {r.memory.id.removeprefix("m-"): r for r in results}


def _ref(result: MemoryCheck) -> RefCheck:
    (ref,) = result.refs
    return ref


def _at(ref: RefCheck) -> str | None:
    return None if ref.place is None else f"{ref.place.path}#{ref.place.symbol}"


def test_a_rename_with_edits_is_followed_to_its_new_name_naming_the_commit(
    history: History,
) -> None:
    ref = _ref(_check(history.repo, history)["load"])
    assert (ref.status, ref.reason) == ("modified", "renamed_with_edits")
    assert _at(ref) == "pkg/loader.py#load_from_path"
    assert ref.since is not None and ref.since.commit == history.commits["load"]
    assert ref.since.subject == "Rename load_from_file to load_from_path, utf-8 by default"
    assert ref.change is not None and (ref.change.kind, ref.change.lines) == ("signature", 1)
    line = ref_line(ref)
    assert "signature" in line and history.commits["load"][:10] in line


def test_a_class_rename_and_its_members_tell_one_story(history: History) -> None:
    found = _check(history.repo, history)
    group, init, render = (_ref(found[k]) for k in ("group", "init", "render"))
    assert (group.status, group.reason, _at(group)) == (
        "modified",
        "renamed_with_edits",
        "pkg/render.py#Group",
    )
    assert group.change is not None and group.change.kind == "body"
    assert (init.status, init.reason, _at(init)) == (
        "modified",
        "container_changed_with_edits",
        "pkg/render.py#Group.__init__",
    )
    assert init.change is not None and init.change.kind == "signature"
    assert (render.status, render.reason, _at(render)) == (
        "relocated",
        "container_changed",
        "pkg/render.py#Group.render",
    )
    assert group.since == init.since == render.since
    assert group.since is not None and group.since.commit == history.commits["group"]
    assert any("RenderGroup was renamed to Group" in w for w in render.warnings)
    assert found["render"].status == "active"


def test_annotations_and_docstrings_only_keep_the_memory_active(history: History) -> None:
    found = _check(history.repo, history)
    convert, describe = _ref(found["convert"]), _ref(found["describe"])
    assert (convert.status, convert.reason) == ("modified", "symbol_changed")
    assert convert.change is not None and (convert.change.kind, convert.change.lines) == (
        "annotations",
        2,
    )
    assert describe.change is not None and describe.change.kind == "cosmetic"
    assert found["convert"].status == found["describe"].status == "active"
    assert any("only type annotations changed" in w for w in found["convert"].warnings)
    assert any("docstrings changed" in w for w in found["describe"].warnings)
    strict = _check(history.repo, history, CheckSettings(cosmetic_changes_stale=True))
    assert strict["convert"].status == strict["describe"].status == "stale"


def test_brackets_that_change_nothing_and_a_generic_base_keep_the_memory_active(
    history: History,
) -> None:
    found = _check(history.repo, history)
    ranged, clamp = _ref(found["range"]), _ref(found["clamp"])
    assert ranged.change is not None and ranged.change.kind == "annotations"
    assert clamp.change is not None and clamp.change.kind == "cosmetic"
    assert found["range"].status == found["clamp"].status == "active"


@pytest.mark.parametrize("step", ["pairs", "moved"])
def test_a_rename_in_a_file_later_moved_is_followed_before_and_after_the_move(
    history: History, step: str, tmp_path: Path
) -> None:
    ref = _ref(_check(history.at(step, tmp_path / "clone"), history)["pairs"])
    path = "pkg/pairs.py" if step == "pairs" else "pkg/formats.py"
    assert (ref.status, ref.reason, _at(ref)) == (
        "modified",
        "renamed_with_edits",
        f"{path}#parse_pairs",
    )
    assert ref.since is not None and ref.since.commit == history.commits["pairs"]
    assert ref.change is not None and (ref.change.kind, ref.change.lines) == ("body", 2)


def test_before_the_renames_nothing_is_stale(history: History, tmp_path: Path) -> None:
    found = _check(history.at("filler", tmp_path / "clone"), history)
    assert {k for k, r in found.items() if r.status != "active"} == {"load"}
    assert _ref(found["keep"]).status == "valid"


def test_without_history_the_reason_says_so(history: History, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow"
    history.repo.git("clone", "-q", "--depth", "1", history.repo.root.as_uri(), str(shallow))
    copy = tmp_path / "copy"
    shutil.copytree(history.repo.root, copy, ignore=shutil.ignore_patterns(".git"))
    for where, why in [(shallow, "shallow clone"), (copy, "no git repository")]:
        ref = _ref(_check(Repo(where), history)["load"])
        assert (ref.status, ref.reason) == ("deleted", "not_found_no_history")
        assert any(why in w for w in ref.warnings)


def test_a_class_history_cannot_follow_is_found_through_its_members(plain_dir: Repo) -> None:
    plain_dir.write("pkg/render.py", RENDER)
    memory = plain_dir.remember(REFS["group"], REFS["render"], REFS["init"])
    renamed = RENDER.replace("class RenderGroup:", "class Group:").replace(
        '    """Renderables shown together."""\n',
        '    """Renderables shown together, padded."""\n\n    pad = 0\n    gap = 1\n',
    )
    plain_dir.write("pkg/render.py", renamed)
    group, render, init = check_memories(Workspace(plain_dir.root), [memory])[0].refs
    assert (render.status, render.reason, _at(render)) == (
        "relocated",
        "container_changed",
        "pkg/render.py#Group.render",
    )
    assert (group.status, group.reason, _at(group)) == (
        "modified",
        "renamed_with_edits",
        "pkg/render.py#Group",
    )
    assert any("followed through its members" in w for w in group.warnings)
    assert _at(init) == "pkg/render.py#Group.__init__"


@pytest.mark.parametrize(
    ("bound", "why"), [("HISTORY_VERSIONS", "read"), ("HISTORY_PARSES", "parsed")]
)
def test_a_check_whose_work_for_history_is_spent_says_so_in_its_reason(
    history: History, monkeypatch: pytest.MonkeyPatch, bound: str, why: str
) -> None:
    monkeypatch.setattr(f"memory.renames.{bound}", 0)
    found = _check(history.repo, history)
    ref = _ref(found["load"])
    assert (ref.status, ref.reason) == ("deleted", "not_found_history_cut")
    assert any(f"not followed to the end: the check {why} the 0 old" in w for w in ref.warnings)
    assert _ref(found["keep"]).status == "valid"


def test_a_member_rewritten_in_a_renamed_class_is_found_through_its_class(
    plain_dir: Repo,
) -> None:
    plain_dir.write("pkg/render.py", RENDER)
    memory = plain_dir.remember(REFS["group"], REFS["init"], REFS["render"])
    rewritten = "        return [console.draw(r, pad=0) for r in reversed(self.renderables)]\n"
    renamed = RENDER.replace("class RenderGroup:", "class Group:").replace(
        "        for item in self.renderables:\n            yield from console.render(item)\n",
        rewritten,
    )
    plain_dir.write("pkg/render.py", renamed)
    group, init, render = check_memories(Workspace(plain_dir.root), [memory])[0].refs
    assert (group.status, _at(group)) == ("modified", "pkg/render.py#Group")
    assert _at(init) == "pkg/render.py#Group.__init__"
    assert (render.status, render.reason, _at(render)) == (
        "modified",
        "container_changed_with_edits",
        "pkg/render.py#Group.render",
    )
    assert any("its container RenderGroup is pkg/render.py#Group now" in w for w in render.warnings)
