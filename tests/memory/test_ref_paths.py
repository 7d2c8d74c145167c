"""A stored path that reaches outside the root through a symlink is never read."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from memory.check import check_anchor
from memory.model import RefSpec
from memory.workspace import Workspace
from tests.memory.conftest import Repo


def test_symlinks_out_of_the_root_make_a_stored_ref_unknown_and_inside_ones_do_not(
    repo: Repo, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("TOKEN = 'x'\n")
    repo.write("pkg/parser.py", "def keep(value):\n    return value\n")
    repo.commit("start")
    os.symlink(outside, repo.root / "pkg" / "out")
    os.symlink(outside / "secret.py", repo.root / "pkg" / "secret.py")
    os.symlink(repo.root / "pkg" / "parser.py", repo.root / "pkg" / "same.py")
    anchor = repo.remember("pkg/parser.py").anchors[0]
    ws = Workspace(repo.root)

    def checked(path: str) -> tuple[str, str]:
        result = check_anchor(ws, replace(anchor, spec=RefSpec("file", path, None)))
        return result.status, result.reason

    assert checked("pkg/out/secret.py") == ("unknown", "invalid_ref")
    assert checked("pkg/out/other.py") == ("unknown", "invalid_ref")
    assert checked("pkg/secret.py") == ("unknown", "invalid_ref")
    assert checked("pkg/same.py")[1] != "invalid_ref"
    assert checked("pkg/parser.py") == ("valid", "unchanged")
