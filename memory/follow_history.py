"""A symbol's results told from its renames in history (`memory.renames`): one story per rename.

    a member whose container is gone    the container is traced; the member is
                                        looked for under the container's new
                                        name -> relocated (container_changed;
                                        moved_to_other_file) or modified
                                        (container_changed_with_edits;
                                        moved_with_edits), naming the
                                        container's rename or move
    a symbol renamed, body the same     renamed (same_body_new_name)
    a symbol renamed with edits         modified (renamed_with_edits)
    a symbol moved, its name kept       relocated (moved_to_other_file) or
                                        modified (moved_with_edits)
    none, and no history to ask         deleted (not_found_no_history)
    none, the search cut short          deleted (not_found_history_cut)

Every result found through history carries the renaming commit (`since`).
The container and its members ask the same question of the same run
(`Renames` answers it once), so they cannot tell two stories; and a class
history could not follow whose anchored members were all found in one new
class of its file is that class (`carried_to_containers`).
"""

from __future__ import annotations

from dataclasses import replace

from map import Symbol
from memory.bodies import body_fingerprint, symbol_id, symbol_text
from memory.confidence import Confidence, for_similarity
from memory.files import FileNow
from memory.model import Anchor, RefCheck, RefReason, Since
from memory.renames import Rename, Renames, simple
from memory.results import place_of, whitespace_note
from memory.similarity import similarity, tokens
from memory.workspace import Workspace


def _commit(anchor: Anchor) -> str | None:
    """The commit history is searched from (None for a dirty anchor: nothing to search)."""
    return None if anchor.dirty else anchor.commit


def via_container(
    ws: Workspace, anchor: Anchor, now: FileNow | None, renames: Renames
) -> RefCheck | None:
    """A member whose container (or one of its outer ones) is not in the file now,
    found in that container renamed."""
    commit, symbol = _commit(anchor), anchor.spec.symbol or ""
    if commit is None or not anchor.container:
        return None
    have = ws.index(now).by_id if now is not None else {}
    missing = next(
        (
            ".".join(anchor.container[:n])
            for n in range(1, len(anchor.container) + 1)
            if ".".join(anchor.container[:n]) not in have
        ),
        None,
    )
    if missing is None or not symbol.startswith(f"{missing}."):
        return None
    rename = renames.trace(commit, anchor.spec.path, missing)
    if rename is None:
        return None
    found = ws.index(rename.file).by_id.get(symbol_id(rename.symbol) + symbol[len(missing) :])
    if found is None:
        return None
    since = rename.since
    went = f"renamed to {symbol_id(rename.symbol)}" if rename.renamed else "moved"
    went += f" in {rename.file.path}" if rename.file.path != anchor.spec.path else ""
    when = f"{since.commit[:10]} ({since.subject})"
    note = f"{anchor.ref}: its container {missing} was {went} in {when}"
    return _as_member(anchor, rename.file, found, since, note)


def _as_member(
    anchor: Anchor, file: FileNow, symbol: Symbol, since: Since | None, note: str
) -> RefCheck:
    """The anchored member is `symbol`, in its container's new place (`note` says which)."""
    place = place_of(file.path, symbol)
    other_file = file.path != anchor.spec.path
    exact = symbol.fingerprint.exact == anchor.content_hash
    if exact or symbol.fingerprint.normalized == anchor.fingerprint:
        notes = (note,) if exact else (note, whitespace_note(anchor))
        moved: RefReason = "moved_to_other_file" if other_file else "container_changed"
        return RefCheck(anchor, "relocated", moved, place, Confidence.NAMED, notes, since=since)
    score = similarity(tokens(anchor.text), tokens(symbol_text(file, symbol)))
    edited: RefReason = "moved_with_edits" if other_file else "container_changed_with_edits"
    return RefCheck(anchor, "modified", edited, place, for_similarity(score), (note,), since=since)


def renamed_in_history(ws: Workspace, anchor: Anchor, renames: Renames) -> RefCheck | None:
    """The symbol under the name a commit since the anchor commit gave it."""
    commit = _commit(anchor)
    if commit is None:
        return None
    rename = renames.trace(commit, anchor.spec.path, anchor.spec.symbol or "")
    if rename is None:
        return None
    return _renamed(anchor, rename)


def _renamed(anchor: Anchor, rename: Rename) -> RefCheck:
    if not rename.renamed:
        return _as_moved(anchor, rename.file, rename.symbol, rename.since, ())
    return _as_renamed(anchor, rename.file, rename.symbol, rename.since)


def _as_renamed(
    anchor: Anchor, file: FileNow, symbol: Symbol, since: Since | None, notes: tuple[str, ...] = ()
) -> RefCheck:
    """The anchored symbol is `symbol` now, under another name."""
    old, new = simple(anchor.spec.symbol or ""), symbol.name
    text = symbol_text(file, symbol)
    place = place_of(file.path, symbol)
    if body_fingerprint(text, new, old) == anchor.body_fingerprint:
        level = Confidence.RENAMED
        return RefCheck(anchor, "renamed", "same_body_new_name", place, level, notes, since=since)
    before = [new if token == old else token for token in tokens(anchor.text)]
    level = for_similarity(similarity(before, tokens(text)))
    return RefCheck(anchor, "modified", "renamed_with_edits", place, level, notes, since=since)


def carried_to_containers(
    ws: Workspace, checked: list[tuple[Anchor, RefCheck]]
) -> dict[int, RefCheck]:
    """A member's rename carried to its container: a class not found while members anchored
    in the same run (same file and commit) were all found in one class new since then (in
    its file under another name, or under its name in another file) is that class. By
    index into `checked`."""
    found: dict[int, RefCheck] = {}
    for index, (anchor, result) in enumerate(checked):
        name = anchor.spec.symbol or ""
        if result.status != "deleted" or anchor.spec.type != "symbol" or not name:
            continue
        homes: set[tuple[str, str]] = set()
        since: Since | None = None
        for other, seen in checked:
            member, place = other.spec.symbol or "", seen.place
            if (
                other.spec.path != anchor.spec.path
                or other.commit != anchor.commit
                or not member.startswith(f"{name}.")
                or place is None
                or not (place.symbol or "").endswith(member[len(name) :])
                or seen.status not in ("relocated", "modified")
            ):
                continue
            homes.add((place.path, (place.symbol or "")[: -len(member[len(name) :])]))
            since = since or seen.since
        if len(homes) != 1:
            continue
        ((path, home),) = homes
        file = ws.readable(path)
        symbol = ws.index(file).by_id.get(home) if file is not None else None
        commit = None if anchor.dirty else anchor.commit
        if file is None or symbol is None or not ws.history.symbol_is_new(commit, path, home):
            continue
        note = f"{anchor.ref}: followed through its members, which are in {path}#{home} now"
        found[index] = (
            _as_renamed(anchor, file, symbol, since, (note,))
            if symbol.name != simple(name)
            else _as_moved(anchor, file, symbol, since, (note,))
        )
    return found


def carried_to_members(
    ws: Workspace, checked: list[tuple[Anchor, RefCheck]]
) -> dict[int, RefCheck]:
    """A container's place carried to its members: a member anchored in the same run as its
    container (same file and commit) that was not found, or was found outside the place
    its container was found at, is the member of that name there when there is one. By
    index into `checked`."""
    found_at = {
        (a.spec.path, a.commit, a.spec.symbol): r
        for a, r in checked
        if r.status in ("relocated", "renamed", "modified") and r.place and r.place.symbol
    }
    found: dict[int, RefCheck] = {}
    for index, (anchor, result) in enumerate(checked):
        name = anchor.spec.symbol or ""
        parts = name.split(".")
        outer = next(
            (
                ".".join(parts[:n])
                for n in range(len(parts) - 1, 0, -1)
                if (anchor.spec.path, anchor.commit, ".".join(parts[:n])) in found_at
            ),
            None,
        )
        if anchor.spec.type != "symbol" or outer is None:
            continue
        container = found_at[(anchor.spec.path, anchor.commit, outer)]
        home = container.place
        assert home is not None and home.symbol is not None
        target = home.symbol + name[len(outer) :]
        if result.place is not None and (result.place.path, result.place.symbol) == (
            home.path,
            target,
        ):
            continue
        file = ws.readable(home.path)
        symbol = ws.index(file).by_id.get(target) if file is not None else None
        if file is not None and symbol is not None:
            where = f"{file.path}#{symbol_id(symbol)[: -len(symbol.name) - 1]}"
            note = f"{anchor.ref}: its container {outer} is {where} now ({container.reason})"
            found[index] = _as_member(anchor, file, symbol, container.since, note)
    return found


def _as_moved(
    anchor: Anchor, file: FileNow, symbol: Symbol, since: Since | None, notes: tuple[str, ...]
) -> RefCheck:
    """The anchored symbol is `symbol` now, under its own name in another file."""
    place = place_of(file.path, symbol)
    if symbol.fingerprint.normalized == anchor.fingerprint:
        level = Confidence.NAMED
        return RefCheck(
            anchor, "relocated", "moved_to_other_file", place, level, notes, since=since
        )
    level = for_similarity(similarity(tokens(anchor.text), tokens(symbol_text(file, symbol))))
    return RefCheck(anchor, "modified", "moved_with_edits", place, level, notes, since=since)


def with_since(anchor: Anchor, result: RefCheck, renames: Renames) -> RefCheck:
    """A `renamed` result found by its body, with the commit that renamed it when history
    leads to the same place."""
    commit = _commit(anchor)
    if result.status != "renamed" or commit is None or result.since is not None:
        return result
    rename = renames.trace(commit, anchor.spec.path, anchor.spec.symbol or "")
    if rename is None or place_of(rename.file.path, rename.symbol) != result.place:
        return result
    return replace(result, since=rename.since)


def not_found(anchor: Anchor, gone: bool, renames: Renames) -> RefCheck:
    """`deleted`, saying when history could not be asked (no git, a shallow clone) or was
    not asked to the end (the check's work for history was spent)."""
    reason: RefReason = "file_deleted" if gone else "symbol_not_found"
    commit = _commit(anchor)
    why = renames.unavailable(commit)
    if why is not None:
        return RefCheck(
            anchor, "deleted", "not_found_no_history", warnings=(f"{anchor.ref}: {why}",)
        )
    short = _cut_short(anchor, commit, renames)
    if short is not None:
        warning = f"{anchor.ref}: its renames in history were not followed to the end: {short}"
        return RefCheck(anchor, "deleted", "not_found_history_cut", warnings=(warning,))
    return RefCheck(anchor, "deleted", reason)


def _cut_short(anchor: Anchor, commit: str | None, renames: Renames) -> str | None:
    """Why the search for the symbol, or for one of its containers, stopped short."""
    if commit is None:
        return None
    symbol = anchor.spec.symbol or ""
    parts = symbol.split(".")
    asked = [".".join(parts[:n]) for n in range(len(parts), 0, -1)]
    return next(
        (w for w in (renames.cut_short(commit, anchor.spec.path, s) for s in asked) if w), None
    )
