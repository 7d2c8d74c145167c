"""Run `codeanchor` as a user would, in its own process, for the adversarial tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

CLI_TIMEOUT_S = 180.0
REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Done:
    """What one command did."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        """Stdout as one JSON document."""
        return orjson.loads(self.out)

    def refused(self) -> str:
        """Assert a bad-input refusal (exit 2, a `codeanchor:` message, no traceback);
        returns the message line."""
        assert self.code == 2, (self.code, self.err)
        assert "Traceback" not in self.err, self.err
        first = self.err.splitlines()[0]
        assert first.startswith("codeanchor: "), self.err
        return first


def cli(
    root: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    prefix: Sequence[str] = (),
) -> Done:
    """`codeanchor ARGS --root ROOT` in its own process (`prefix` runs it under another
    command, e.g. one that drops privileges)."""
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "bridge.cli", *args, "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_S,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
    )
    return Done(done.returncode, done.stdout, done.stderr)


def unprivileged() -> list[str] | None:
    """A command prefix that runs a program without the right to write what its user
    cannot: under root, root without its permission-bypassing capabilities (it can
    still read the checkout wherever it lies); [] when not root; None when that is not
    possible."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def tree(path: Path) -> dict[str, bytes]:
    """Every file under `path` (relative name -> bytes): to show nothing was written."""
    return {
        str(p.relative_to(path)): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }
