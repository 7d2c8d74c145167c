"""Go modules whose dependencies are missing from the module cache.

The catalog runs gopls with GOPROXY=off: nothing is downloaded at run time.
In a module whose requirements are not in the module cache, gopls still
answers what the module's own packages tell (definitions, hovers), but fails
references and call hierarchy ("N modules have errors"), and types that come
from a missing module are invalid. `go list -m -e -json all`, run in the
module's folder with the server's environment, names each module it could not
load and why (`lsp.problems` says it, with `go mod download` as the fix).

A module found whole is not checked again until its go.mod or go.sum changes;
one with problems is checked at every query, since its fix changes neither.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from disk.stamps import FileStamp

_CHECK_TIMEOUT_S = 30.0


@dataclass(frozen=True, slots=True)
class BrokenModule:
    """A Go module some of whose requirements could not be loaded."""

    folder: str
    """Root-relative POSIX path of the module's folder ("." for the root)."""
    failed: tuple[str, ...]
    """`path@version (why)` of each requirement that failed."""


class GoModules:
    """Checks the Go module that holds a queried file, as gopls will load it."""

    def __init__(self, root: Path, env: Mapping[str, str]) -> None:
        self._root = root
        self._env = {**os.environ, **env}
        self._sound: dict[Path, tuple[FileStamp | None, FileStamp | None]] = {}

    async def check(self, path: Path) -> BrokenModule | None:
        """The module holding `path`, when requirements of it are missing (None when
        none are, or when it cannot tell)."""
        module = _module_folder(self._root, path)
        if module is None or (module / "vendor" / "modules.txt").is_file():
            return None
        key = (FileStamp.of(module / "go.mod"), FileStamp.of(module / "go.sum"))
        if self._sound.get(module) == key:
            return None
        found = await self._list(module)
        if found is None:
            return None
        if not found:
            self._sound[module] = key
            return None
        return BrokenModule(module.relative_to(self._root).as_posix(), tuple(found))

    async def _list(self, module: Path) -> list[str] | None:
        """`path@version (why)` of each module that failed to load; None: no answer."""
        go = shutil.which("go", path=self._env.get("PATH"))
        if go is None:
            return None
        try:
            process = await asyncio.create_subprocess_exec(
                go,
                "list",
                "-m",
                "-e",
                "-json",
                "all",
                cwd=module,
                env=self._env,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
            )
        except OSError:
            return None
        try:
            out, _ = await asyncio.wait_for(process.communicate(), _CHECK_TIMEOUT_S)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            return None
        return _failed(out.decode("utf-8", "replace"))


def _failed(stream: str) -> list[str]:
    """The modules with an Error in `go list -m -json` output (a stream of objects)."""
    decoder = json.JSONDecoder()
    failed, offset = [], 0
    while (offset := _skip_space(stream, offset)) < len(stream):
        try:
            item, offset = decoder.raw_decode(stream, offset)
        except json.JSONDecodeError:
            break
        error = item.get("Error") if isinstance(item, dict) else None
        if isinstance(error, dict):
            name = f"{item.get('Path')}@{item.get('Version')}"
            failed.append(f"{name} ({error.get('Err', 'unknown error')})")
    return failed


def _skip_space(text: str, offset: int) -> int:
    while offset < len(text) and text[offset].isspace():
        offset += 1
    return offset


def _module_folder(root: Path, path: Path) -> Path | None:
    """The nearest folder from `path` up to `root` that holds a go.mod."""
    folder = path.parent
    while True:
        if (folder / "go.mod").is_file():
            return folder
        if folder == root or root not in folder.parents:
            return None
        folder = folder.parent
