"""nav_rename: the LIVE server's rename as a preview, written only when asked.

The preview gives, per file, the content hash it was computed on, the count
of edits and a unified diff. `apply=true` writes the edits, but only if every
touched file still has that hash (and, given `hashes` from an earlier
preview, the hash the caller saw): all files are checked before any is
written, else a `conflict` error names the files that changed and nothing is
written; so it is when the server's edits, asked again, leave a file the
preview edited (its index moved in between). Each file is written atomically
(a temporary file beside it, then `os.replace`); the servers' open documents
are re-synced after, and the map is flagged stale where a watcher runs. Edits
outside the root, or edits that create, rename or delete files, are refused.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import tempfile
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bridge.context import AppContext
from bridge.contract.change_shapes import (
    Apply,
    NewName,
    PreviewHashes,
    RenameAnswer,
    RenameData,
    RenamedFile,
)
from bridge.contract.envelope import ranked_lists, respond
from bridge.contract.errors import BadInputError, NotFoundError, ToolError
from bridge.contract.schema_types import Budget, Name, Target
from bridge.tools.live_target import aim_at, retry_once
from bridge.tools.rename_check import check_rename
from bridge.tools.rename_trial import trial_shape, trial_sites, try_rename
from disk.errors import DiskError
from disk.stamps import content_hash
from disk.text import decode_source, read_source_bytes
from lsp import FileEdits, apply_edits

_BOM = b"\xef\xbb\xbf"
DIFF_CONTEXT = 2


class ConflictError(ToolError):
    """A file to be written changed since its rename was computed; nothing was written."""

    code = "conflict"


@dataclass(frozen=True, slots=True)
class _Planned:
    """One file's edits as the answer shows them (`shown`), and what to write where."""

    shown: RenamedFile
    absolute: Path
    after: bytes


def _plan(edits: FileEdits) -> _Planned:
    data = read_source_bytes(edits.absolute)
    text = decode_source(data, path=edits.path)
    new_text = apply_edits(text, edits.edits)
    bom = _BOM if data.startswith(_BOM) else b""
    diff = difflib.unified_diff(
        text.splitlines(keepends=True),
        new_text.splitlines(keepends=True),
        f"a/{edits.path}",
        f"b/{edits.path}",
        n=DIFF_CONTEXT,
    )
    shown = RenamedFile(
        path=edits.path, edits=len(edits.edits), hash=content_hash(data), diff="".join(diff)
    )
    return _Planned(shown, edits.absolute, bom + new_text.encode("utf-8"))


def _conflicts(planned: Sequence[_Planned], hashes: Mapping[str, str] | None) -> list[str]:
    """The planned files whose content moved since the plan (or since the caller's
    preview), and the files of that preview the plan no longer edits."""
    changed = []
    for plan in planned:
        try:
            now = content_hash(read_source_bytes(plan.absolute))
        except (OSError, DiskError):  # gone or no longer text: changed all the same
            now = ""
        path, before = plan.shown["path"], plan.shown["hash"]
        seen = before if hashes is None else hashes.get(path)
        if now != before or now != seen:
            changed.append(path)
    # a file the preview edited that these edits leave: the server's answer moved
    planned_paths = {plan.shown["path"] for plan in planned}
    return changed + sorted(set(hashes or ()) - planned_paths)


def _write(plan: _Planned) -> None:
    """Replace the file's content atomically, keeping its permission bits."""
    mode = plan.absolute.stat().st_mode & 0o7777
    fd, temp = tempfile.mkstemp(prefix=".codeanchor-", dir=plan.absolute.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(plan.after)
        os.chmod(temp, mode)
        os.replace(temp, plan.absolute)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


async def nav_rename(
    app: AppContext,
    target: Target,
    new_name: NewName,
    name: Name = None,
    apply: Apply = False,
    hashes: PreviewHashes = None,
    budget: Budget = None,
) -> RenameAnswer:
    """Rename the symbol at TARGET to `new_name` (live). A PREVIEW by default:
    per-file `diff`s and `hash`es; `notRenamed` lists each site the edits leave or
    break (`completeness`). `apply=true` writes atomically unless a file changed since
    (or differs from `hashes`): then a `conflict` error."""
    budget_tokens = app.budget(budget)
    wanted = new_name.strip()
    if not wanted or any(ch in wanted for ch in "\r\n\0"):
        raise BadInputError(
            f"bad new name {new_name!r}", hint="pass the new identifier, one line, not empty"
        )
    aim = await aim_at(app, target, name)
    position = aim.position

    def rename() -> Awaitable[list[FileEdits]]:
        return retry_once(
            lambda: app.live.rename(position.path, position.line, position.character, wanted),
            app,
            position.path,
        )

    edits = await rename()
    if not edits:
        raise NotFoundError(
            f"{position.path}:{position.line + 1}: the server has nothing to rename there",
            hint="target a symbol's name (a node ID, or `name` with path:LINE)",
        )
    check = await check_rename(app, aim, wanted, edits)
    if any(site["why"] == "reference_not_edited" for site in check.left):
        # a server still loading its project renames in part (tsserver: the defining
        # file alone); the check opened the files naming it: asked again, once
        again = await rename()
        if again != edits:
            edits, check = again, await check_rename(app, aim, wanted, again)
    planned = [_plan(e) for e in edits]
    texts = {p.shown["path"]: p.after.decode("utf-8").removeprefix("\ufeff") for p in planned}
    trial = await try_rename(app, texts, check.old, wanted)
    left = check.left + trial_sites(app, trial, texts, check.left)
    if apply:
        changed = _conflicts(planned, hashes)
        if changed:
            raise ConflictError(
                f"changed since the rename was computed (or no longer edited by the "
                f"server's rename): {', '.join(changed)}; nothing written",
                hint="preview again (without apply) and apply the new preview",
            )
        for plan in planned:
            _write(plan)
        await _after_write(app, [p.shown["path"] for p in planned])
    data = RenameData(
        target=aim.target(),
        newName=wanted,
        applied=apply,
        fileCount=len(planned),
        editCount=sum(p.shown["edits"] for p in planned),
        files=[p.shown for p in planned],
        completeness="partial" if left or trial.not_checked else "complete",
        notRenamed=sorted(left, key=lambda site: (site["path"], site["line"])),
        trial=trial_shape(trial),
    )
    warnings = aim.warnings()
    if not apply:
        warnings.append("preview only: nothing written (pass apply=true to write it)")
    if left:
        warnings.append(
            f"the edits leave {len(left)} sites (see data.notRenamed): rename or fix them "
            "too, or the code keeps the old name there"
        )
    if trial.not_checked:
        warnings.append(
            f"the edits were not tried on {len(trial.not_checked)} files (see "
            "data.trial.notChecked): errors they add there are not listed"
        )
    return respond(
        data,
        budget_tokens=budget_tokens,
        ranked=ranked_lists(data, "notRenamed", "files"),
        warnings=warnings,
    )


async def _after_write(app: AppContext, paths: list[str]) -> None:
    """Re-sync the servers' documents with the written files; flag them stale in the
    map where a watcher runs (it rebuilds them)."""
    await app.live.sync(paths)
    if app.watcher_state()["status"] == "watching":
        (await app.code_map()).mark_stale(paths)
