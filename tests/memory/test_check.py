"""Each kind of change to the code, and the status a memory's reference gets."""

from __future__ import annotations

from map.extraction.extract import extract_file
from memory.workspace import Workspace
from tests.memory.conftest import Repo

TOKENS = '''"""Token handling."""


class TokenStore:
    def issue(self, user):
        token = f"{user}-token"
        return token

    def revoke(self, token):
        return None


def helper(value):
    total = value * 2
    return total + 1
'''


def _lines_of(text: str, needle: str) -> int:
    """1-based number of the first line containing `needle`."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _start(repo: Repo) -> None:
    repo.write("src/tokens.py", TOKENS)
    repo.write("README.md", "# Project\n\nSome words.\n")
    repo.commit("start")


def test_untouched_code_is_valid(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("src/tokens.py#TokenStore.issue", "README.md", "src/tokens.py:13-15")
    result = repo.check(memory)
    assert [r.status for r in result.refs] == ["valid", "valid", "valid"]
    assert result.status == "active"


def test_insertion_above_moves_lines(repo: Repo) -> None:
    _start(repo)
    line = _lines_of(TOKENS, "def helper")
    symbol = repo.remember("src/tokens.py#helper")
    lines = repo.remember(f"src/tokens.py:{line}-{line + 2}")
    repo.write("src/tokens.py", "import os\nimport sys\n\n" + TOKENS)
    repo.commit("imports")
    for memory in (symbol, lines):
        result = repo.check_ref(memory)
        assert (result.status, result.reason) == ("relocated", "lines_moved")
        assert result.place is not None
        assert result.place.start_line == line + 3
    assert repo.check(symbol).status == "active"


def test_function_moved_to_another_file(repo: Repo) -> None:
    _start(repo)
    repo.write("src/other.py", "X = 1\n")
    repo.commit("other")
    memory = repo.remember("src/tokens.py#helper")
    helper = TOKENS[TOKENS.index("def helper") :]
    repo.write("src/tokens.py", TOKENS[: TOKENS.index("def helper")].rstrip() + "\n")
    repo.write("src/other.py", "X = 1\n\n\n" + helper)
    repo.commit("move helper")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("relocated", "moved_to_other_file")
    assert result.place is not None
    assert (result.place.path, result.place.symbol) == ("src/other.py", "helper")
    assert result.confidence is not None and 0 < result.confidence <= 1


def test_git_mv_rename(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("src/tokens.py#TokenStore.issue", "src/tokens.py")
    repo.git("mv", "src/tokens.py", "src/auth_tokens.py")
    repo.commit("rename")
    result = repo.check(memory)
    assert [(r.status, r.reason) for r in result.refs] == [("relocated", "git_rename")] * 2
    assert [r.place.path for r in result.refs if r.place] == ["src/auth_tokens.py"] * 2
    assert result.status == "active"


def test_rename_with_edits(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember(
        "src/tokens.py#TokenStore.issue", "src/tokens.py#helper", "src/tokens.py"
    )
    repo.git("mv", "src/tokens.py", "src/auth_tokens.py")
    edited = TOKENS.replace("total + 1", "total + 2")
    repo.write("src/auth_tokens.py", edited)
    repo.commit("rename and edit")
    issue, helper, whole = repo.check(memory).refs
    assert (issue.status, issue.reason) == ("relocated", "git_rename")
    assert (helper.status, helper.reason) == ("modified", "symbol_changed")
    assert helper.place is not None and helper.place.path == "src/auth_tokens.py"
    assert (whole.status, whole.reason) == ("modified", "renamed_with_edits")


def test_symbol_renamed(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("src/tokens.py#helper")
    repo.write("src/tokens.py", TOKENS.replace("def helper", "def double_plus_one"))
    repo.commit("rename helper")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("renamed", "same_body_new_name")
    assert result.place is not None and result.place.symbol == "double_plus_one"
    assert repo.check(memory).status == "stale"


def test_class_renamed_methods_follow(repo: Repo) -> None:
    _start(repo)
    method = repo.remember("src/tokens.py#TokenStore.issue")
    klass = repo.remember("src/tokens.py#TokenStore")
    repo.write("src/tokens.py", TOKENS.replace("class TokenStore", "class Tokens"))
    repo.commit("rename class")
    result = repo.check_ref(method)
    assert (result.status, result.reason) == ("relocated", "container_changed")
    assert result.place is not None and result.place.symbol == "Tokens.issue"
    renamed = repo.check_ref(klass)
    assert renamed.status == "renamed"
    assert renamed.place is not None and renamed.place.symbol == "Tokens"


def test_body_changed(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("src/tokens.py#helper", "src/tokens.py:13-15")
    repo.write("src/tokens.py", TOKENS.replace("value * 2", "value * 3"))
    repo.commit("change helper")
    symbol, lines = repo.check(memory).refs
    assert (symbol.status, symbol.reason) == ("modified", "symbol_changed")
    assert (lines.status, lines.reason) == ("modified", "lines_changed")
    assert repo.check(memory).status == "stale"


def test_whitespace_only_reformat_is_not_a_change(repo: Repo) -> None:
    _start(repo)
    line = _lines_of(TOKENS, "def helper")
    memory = repo.remember("src/tokens.py#helper", f"src/tokens.py:{line}-{line + 2}")
    reformatted = TOKENS.replace("total = value * 2", "total = value*2  # doubled")
    repo.write("src/tokens.py", reformatted)
    repo.commit("reformat")
    symbol, lines = repo.check(memory).refs
    assert (symbol.status, symbol.reason) == ("valid", "whitespace_only")
    assert (lines.status, lines.reason) == ("valid", "whitespace_only")
    assert symbol.warnings


def test_symbol_deleted(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("src/tokens.py#helper", "src/tokens.py#TokenStore.issue")
    repo.write("src/tokens.py", TOKENS[: TOKENS.index("def helper")])
    repo.commit("drop helper")
    helper, issue = repo.check(memory).refs
    assert (helper.status, helper.reason) == ("deleted", "symbol_not_found")
    assert issue.status == "valid"
    assert repo.check(memory).status == "stale"


def test_file_deleted_makes_memory_historical(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("src/tokens.py#helper", "src/tokens.py")
    repo.git("rm", "-q", "src/tokens.py")
    repo.commit("drop tokens")
    result = repo.check(memory)
    assert [(r.status, r.reason) for r in result.refs] == [("deleted", "file_deleted")] * 2
    assert result.status == "historical"


def test_uncommitted_edits_are_seen(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("src/tokens.py#helper")
    repo.write("src/tokens.py", TOKENS.replace("value * 2", "value * 5"))
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("modified", "symbol_changed")


def test_non_git_directory_checks_by_hash(plain_dir: Repo) -> None:
    plain_dir.write("src/tokens.py", TOKENS)
    memory = plain_dir.remember("src/tokens.py#helper", "src/tokens.py#TokenStore.issue")
    assert Workspace(plain_dir.root).git is None
    assert memory.anchors[0].commit is None
    assert plain_dir.check(memory).status == "active"
    plain_dir.write("src/tokens.py", TOKENS.replace("value * 2", "value * 5"))
    helper, issue = plain_dir.check(memory).refs
    assert (helper.status, helper.reason) == ("modified", "symbol_changed")
    assert issue.status == "valid"
    (plain_dir.root / "src/tokens.py").rename(plain_dir.root / "src/moved.py")
    helper, issue = plain_dir.check(memory).refs
    assert issue.status == "relocated" and issue.place and issue.place.path == "src/moved.py"


def test_branch_switch(repo: Repo) -> None:
    _start(repo)
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("src/tokens.py", TOKENS.replace("value * 2", "value * 7"))
    repo.commit("feature work")
    memory = repo.remember("src/tokens.py#helper", "src/tokens.py#TokenStore.issue")
    repo.git("checkout", "-q", "main")
    repo.write("README.md", "# Project\n\nOther words.\n")
    repo.commit("main moves on")
    result = repo.check(memory)
    assert [r.status for r in result.refs] == ["modified", "valid"]
    assert any("diverged" in w and "feature" in w for w in result.warnings)
    repo.git("checkout", "-q", "feature")
    back = repo.check(memory)
    assert back.status == "active"
    assert not any("diverged" in w for w in back.warnings)


def test_memory_anchored_to_dirty_file(repo: Repo) -> None:
    _start(repo)
    edited = TOKENS.replace("value * 2", "value * 9")
    repo.write("src/tokens.py", edited)
    memory = repo.remember("src/tokens.py#helper")
    assert memory.anchors[0].dirty
    assert repo.check_ref(memory).status == "valid"
    repo.commit("commit the edit")
    assert repo.check_ref(memory).status == "valid"
    repo.git("revert", "--no-edit", "HEAD")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("modified", "symbol_changed")


def test_stale_memory_becomes_active_when_code_comes_back(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("src/tokens.py#helper")
    repo.write("src/tokens.py", TOKENS.replace("value * 2", "value * 3"))
    assert repo.check(memory).status == "stale"
    repo.write("src/tokens.py", TOKENS)
    assert repo.check(memory).status == "active"


def test_file_moved_without_git_mv(repo: Repo) -> None:
    _start(repo)
    memory = repo.remember("README.md")
    (repo.root / "README.md").rename(repo.root / "docs.md")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("relocated", "content_moved")
    assert result.place is not None and result.place.path == "docs.md"


def test_root_inside_a_larger_repository(repo: Repo) -> None:
    repo.write("pkg/src/tokens.py", TOKENS)
    repo.write("other/tokens.py", TOKENS)
    repo.commit("start")
    sub = Repo(repo.root / "pkg")
    memory = sub.remember("src/tokens.py#helper", "src/tokens.py#TokenStore.issue")
    repo.write("other/tokens.py", TOKENS.replace("value * 2", "value * 3"))
    assert [r.status for r in sub.check(memory).refs] == ["valid", "valid"]
    repo.git("mv", "pkg/src/tokens.py", "pkg/src/renamed.py")
    repo.write("pkg/src/renamed.py", TOKENS.replace("value * 2", "value * 3"))
    helper, issue = sub.check(memory).refs
    assert (helper.status, helper.place and helper.place.path) == ("modified", "src/renamed.py")
    assert (issue.status, issue.reason) == ("relocated", "git_rename")


def test_ignored_file_is_checked_by_content(repo: Repo) -> None:
    repo.write(".gitignore", "local_settings.py\n")
    repo.commit("ignore settings")
    repo.write("local_settings.py", "DEBUG = True\n")
    memory = repo.remember("local_settings.py")
    assert memory.anchors[0].dirty
    assert repo.check_ref(memory).status == "valid"
    repo.write("local_settings.py", "DEBUG = False\n")
    assert repo.check_ref(memory).status == "modified"


def test_rename_that_leaves_the_old_name_in_the_docstring(repo: Repo) -> None:
    code = 'def area(w, h):\n    """Use area(w, h) for rectangles."""\n    return w * h\n'
    repo.write("geo.py", code)
    repo.commit("start")
    memory = repo.remember("geo.py#area")
    repo.write("geo.py", code.replace("def area", "def rect_area"))
    result = repo.check_ref(memory)
    assert (result.status, result.place and result.place.symbol) == ("renamed", "rect_area")


def test_the_code_maps_extraction_is_reused_only_for_the_same_content(repo: Repo) -> None:
    repo.write("src/tokens.py", TOKENS)
    repo.commit("start")
    maps_view = extract_file("src/tokens.py", TOKENS.encode())
    ws = Workspace(repo.root, known=lambda path: maps_view)
    file = ws.read("src/tokens.py")
    reused = ws.outline(file) if file is not None else None
    assert reused is not None and reused.symbols is maps_view.symbols
    repo.write("src/tokens.py", TOKENS + "\n\nX = 1\n")
    fresh = Workspace(repo.root, known=lambda path: maps_view)
    changed = fresh.read("src/tokens.py")
    assert changed is not None
    outline = fresh.outline(changed)
    assert outline is not None and outline.symbols is not maps_view.symbols
    assert outline.content_hash == changed.hash
    assert [s.node_id for s in outline.symbols][-1] == "src/tokens.py#X"
