"""Kill -9 a process in the middle of saving the map: the one way to test a torn write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
KILL_DEADLINE_S = 60.0
SAVER = """
import sys
from pathlib import Path
from map.live.codemap import CodeMap
codemap = CodeMap.open(Path(sys.argv[1]))
while True:
    print("saving", flush=True)
    codemap.save(full=True)
"""


def kill_mid_save(root: Path) -> None:
    """Start a process that rewrites the whole map store of `root` over and over, and
    kill it with SIGKILL while its third save is under way."""
    saver = subprocess.Popen(
        [sys.executable, "-c", SAVER, str(root)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    try:
        assert saver.stdout is not None
        for _ in range(3):  # two saves done, the third under way
            assert saver.stdout.readline().strip() == b"saving"
        saver.send_signal(signal.SIGKILL)
    finally:
        saver.kill()
        saver.wait(timeout=KILL_DEADLINE_S)
        if saver.stdout is not None:
            saver.stdout.close()
