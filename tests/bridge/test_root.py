"""The root a command serves: the git top-level, `--root`, and refusals outside git.

Commands run in-process through `bridge.cli.main.main`, from a chosen current
folder; what they wrote (or did not) is read back from the disk.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.about import package_version
from bridge.cli.main import main
from bridge.root import MAX_FILES_ENV, choose_root
from tests.adversarial.cli import Done
from tests.conftest import write_tree
from tests.gitrepo import commit_all

SOURCE = {
    "pkg/core.py": "def helper():\n    return 1\n",
    "pkg/use.py": "from pkg.core import helper\n\ndef caller():\n    return helper()\n",
}


def run_in(capsys: pytest.CaptureFixture[str], folder: Path, *args: str) -> Done:
    """Run `codeanchor ARGS` in-process with `folder` as the current folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        code = main(list(args))
    captured = capsys.readouterr()
    return Done(code, captured.out, captured.err)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = write_tree(tmp_path / "repo", SOURCE)
    commit_all(root, "first")
    return root


def test_a_subfolder_serves_its_repository(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done = run_in(capsys, repo / "pkg", "map", "search", "helper", "--json")
    assert done.code == 0, done.err
    assert [hit["nodeId"] for hit in done.json()["data"]["hits"]] == ["pkg/core.py#helper"]
    assert not (repo / "pkg" / ".codeanchor").exists()


def test_root_option_wins_over_the_current_folder(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    assert choose_root(str(other), cwd=repo / "pkg") == other.resolve()
    assert choose_root(None, cwd=repo / "pkg") == repo.resolve()


def test_a_big_folder_outside_git_is_refused_naming_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_tree(tmp_path / "loose", {f"f{i}.py": "x = 1\n" for i in range(4)})
    monkeypatch.setenv(MAX_FILES_ENV, "3")
    message = run_in(capsys, folder, "map", "status").refused()
    assert "more than 3 files" in message and "--root" in message
    assert not (folder / ".codeanchor").exists()
    monkeypatch.setenv(MAX_FILES_ENV, "4")
    assert run_in(capsys, folder, "map", "status", "--json").code == 0


def test_the_home_directory_is_refused_and_root_overrides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = write_tree(tmp_path / "home", {"notes.py": "x = 1\n"})
    monkeypatch.setenv("HOME", str(home))
    message = run_in(capsys, home, "map", "search", "x").refused()
    assert "home directory" in message and "--root" in message
    assert run_in(capsys, home, "map", "search", "x", "--root", str(home), "--json").code == 0


def test_serve_from_the_home_directory_is_refused_before_serving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert "--root" in run_in(capsys, tmp_path, "serve").refused()
    assert not (tmp_path / ".codeanchor").exists()


def test_doctor_runs_anywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    done = run_in(capsys, tmp_path, "doctor", "--json")
    assert done.code in (0, 1), done.err
    assert "servers" in done.json()
    assert not (tmp_path / ".codeanchor").exists()


READ_ONLY = [
    ("map", "status"),
    ("map", "overview"),
    ("map", "search", "helper"),
    ("map", "show", "pkg/core.py"),
    ("map", "callers", "pkg/core.py#helper"),
    ("memory", "list"),
    ("memory", "recall", "helper"),
    ("nav", "symbols", "pkg/core.py"),
]


@pytest.mark.parametrize("command", READ_ONLY, ids=" ".join)
def test_read_only_commands_create_no_state_folder(
    repo: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    if command[0] == "nav":
        from tests.conftest import require_binary

        require_binary("ty")
    done = run_in(capsys, repo, *command, "--json")
    assert done.code == 0, done.err
    assert not (repo / ".codeanchor").exists()


def test_an_answer_from_a_map_built_for_it_says_so(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = run_in(capsys, repo, "map", "search", "helper", "--json").json()
    assert any("no map built yet" in w for w in first["warnings"])
    assert run_in(capsys, repo, "map", "build", "--json").code == 0
    assert (repo / ".codeanchor").is_dir()
    kept = run_in(capsys, repo, "map", "search", "helper", "--json").json()
    assert not any("no map built yet" in w for w in kept["warnings"])


def test_version_is_the_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"codeanchor {package_version()}\n"
    assert package_version() != "0+unknown"
