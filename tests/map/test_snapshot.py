"""A snapshot that cannot be trusted is rebuilt; a crash mid-save keeps the previous one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from map.codemap import CodeMap, MapSettings
from map.errors import MapError
from map.snapshot import SCHEMA_VERSION
from tests.map.graph_state import copy_repo, graph_state


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupt(path: Path) -> None:
    path.write_bytes(b"\x00garbage{" + path.read_bytes()[10:])


def _edit_header(path: Path, **fields: object) -> None:
    header, rest = path.read_bytes().split(b"\n", 1)
    document = orjson.loads(header)
    document.update(fields)
    path.write_bytes(orjson.dumps(document) + b"\n" + rest)


def _old_schema(path: Path) -> None:
    _edit_header(path, schema=SCHEMA_VERSION - 1)


def _other_root(path: Path) -> None:
    _edit_header(path, root="/somewhere/else")


def _malformed_payload(path: Path) -> None:
    """A sound header whose payload is valid JSON but not extracts."""
    header, token, _ = path.read_bytes().split(b"\n", 2)
    path.write_bytes(header + b"\n" + token + b'\n{"pkg/core.py": [1, 2]}\n')


def _payload_of_another_save(path: Path) -> None:
    """A header whose token is not the payload's (as if the file was replaced mid-read)."""
    _edit_header(path, token="0123456789abcdef")


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": _truncate,
    "corrupt": _corrupt,
    "old_schema": _old_schema,
    "other_root": _other_root,
    "malformed_payload": _malformed_payload,
    "payload_of_another_save": _payload_of_another_save,
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_untrusted_snapshot_is_rebuilt(tmp_path: Path, damage: str) -> None:
    root = copy_repo(tmp_path)
    original = CodeMap.open(root)
    DAMAGE[damage](original.snapshot_path)
    reopened = CodeMap.open(root)
    assert graph_state(reopened) == graph_state(original)
    assert reopened.last_report is not None
    assert reopened.last_report.full  # nothing was taken from the damaged snapshot
    # the rebuilt snapshot is sound again
    assert CodeMap.open(root).rebuild().files_changed == []


def test_partial_temp_file_from_a_crashed_save_is_ignored(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    original = CodeMap.open(root)
    partial = original.snapshot_path.with_name(f".{original.snapshot_path.name}.crash.tmp")
    partial.write_bytes(original.snapshot_path.read_bytes()[:100])
    reopened = CodeMap.open(root)
    assert reopened.last_report is not None
    assert not reopened.last_report.full  # the previous snapshot was used
    assert graph_state(reopened) == graph_state(original)
    assert reopened.rebuild().files_changed == []


SAVER = """
import sys
from pathlib import Path
from map.codemap import CodeMap, MapSettings
from map.errors import MapError
codemap = CodeMap.open(Path(sys.argv[1]))
print("ready", flush=True)
while True:
    codemap.save()
"""


def test_killing_a_process_mid_save_leaves_a_usable_snapshot(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    original = CodeMap.open(root)
    repo_root = Path(__file__).resolve().parents[2]
    saver = subprocess.Popen(
        [sys.executable, "-c", SAVER, str(root)],
        cwd=repo_root,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(repo_root)},
    )
    try:
        assert saver.stdout is not None
        assert saver.stdout.readline().strip() == b"ready"
        deadline = time.monotonic() + 10
        temps: list[Path] = []
        while not temps and time.monotonic() < deadline:  # kill while a temp file exists
            temps = list(original.snapshot_path.parent.glob(".map.json.*.tmp"))
        saver.send_signal(signal.SIGKILL)
    finally:
        saver.kill()
        saver.wait(timeout=10)
        if saver.stdout is not None:
            saver.stdout.close()
    reopened = CodeMap.open(root)
    assert reopened.last_report is not None
    assert not reopened.last_report.full  # the previous snapshot was used
    assert graph_state(reopened) == graph_state(original)
    assert reopened.rebuild().files_changed == []


def test_unwritable_snapshot_directory_leaves_a_working_map(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where the snapshot directory should be\n")
    settings = MapSettings(snapshot_dir=str(blocker / "snapshots"))
    codemap = CodeMap.open(root, settings)
    assert "pkg/core.py#Engine" in codemap.graph
    with pytest.raises(MapError, match="cannot write the map snapshot"):
        codemap.save()
