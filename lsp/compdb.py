"""A compilation database for C and C++ trees that have none, so clangd sees them whole.

clangd's background index, which answers references and callers in files
never opened, covers only the files a `compile_commands.json` lists. A tree
with no database of its own (in its root or `build/`) gets one generated
under `.codeanchor/clangd/`, never in the user's tree; the server is started
with `--compile-commands-dir` pointing there, and keeps its index there too.

Every source file gets an entry, as does every header no source includes.
The flags are `-ferror-limit=0` (every error of a file, not the first 20),
the root's `compile_flags.txt`, if any, plus `-I` for each
folder the tree's `#include` lines need: a header included as `"geo/point.h"`
and found at `lib/include/geo/point.h` adds `lib/include` (an include found
beside its includer needs none); plus `-isystem` for the system folders that
headers from outside need (see `lsp.cheaders`). The database is written again when the set of
C and C++ files or their `#include` lines change (keyed by a hash of both and
of those flags and of the root, so a tree moved with its `.codeanchor/` gets
entries naming its new place; a file is read again only when its stat key moved); clangd
notices a rewritten database by itself. A tree that cannot hold `.codeanchor/`
(read-only) runs clangd without a database, as before.
"""

from __future__ import annotations

import json
import os
import posixpath
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath

from disk.stamps import FileStamp, content_hash
from disk.statedir import STATE_DIR, refuse_link, state_dir, state_file
from lsp.catalog import ServerSpec
from lsp.cheaders import Include, includes_of, unprovided
from lsp.racy import settled

DATABASE = "compile_commands.json"
FOLDER = "clangd"
OWN_DATABASES = (DATABASE, f"build/{DATABASE}")
"""Where a tree keeps its own database (which then wins), relative to the root."""
_KEY = "compile_commands.key"
_MISSING = "missing_headers.json"
_SCHEMA = "2"
_FLAGS_FILE = "compile_flags.txt"
_NO_ERROR_LIMIT = "-ferror-limit=0"
"""clang stops at 20 errors a file: a change's baseline and its answer then cut at
different places (errors past one cut look new); a compile_flags.txt can still set one."""
_SOURCES: Mapping[str, str] = {".c": "c", ".cc": "c++", ".cpp": "c++", ".cxx": "c++", ".c++": "c++"}
_CPP_HEADERS = frozenset({".hpp", ".hh", ".hxx", ".h++"})
# Folders clangd writes under the database's folder: links there would carry its index out.
_CLANGD_WRITES = (
    FOLDER,
    f"{FOLDER}/.cache",
    f"{FOLDER}/.cache/clangd",
    f"{FOLDER}/.cache/clangd/index",
)


def has_own_database(root: Path) -> bool:
    """True when the tree holds its own compile_commands.json (root or build/)."""
    return any((root / name).is_file() for name in OWN_DATABASES)


class GeneratedDatabase:
    """The database codeanchor keeps for one tree, in `folder`."""

    def __init__(self, root: Path, folder: Path) -> None:
        self.root = root
        self.folder = folder
        self._seen: dict[str, tuple[FileStamp, tuple[Include, ...]]] = {}
        """Each file's stat key and `#include` lines, as last read (kept only once the
        key is old enough to vouch for the content, see `lsp.racy`)."""

    @classmethod
    def for_server(cls, spec: ServerSpec, root: Path) -> GeneratedDatabase | None:
        """The database to generate for `spec`'s server at `root`, or None when the
        server takes none, the tree has its own, or `.codeanchor/` cannot be made.

        Raises OutsideRootError when `.codeanchor/` (or a folder clangd writes in
        it) is a symlink.
        """
        if not spec.compile_commands_arg or has_own_database(root):
            return None
        try:
            state = state_dir(root)
            for name in _CLANGD_WRITES:
                refuse_link(state / name)
            folder = state / FOLDER
            folder.mkdir(exist_ok=True)
        except OSError:
            return None
        return cls(root, folder)

    def launch(self, spec: ServerSpec) -> ServerSpec:
        """`spec` with the option that points the server at this database."""
        return replace(spec, command=(*spec.command, f"{spec.compile_commands_arg}{self.folder}"))

    def update(self, files: Iterable[str]) -> bool:
        """Write the database for these C and C++ files (absolute paths) unless the
        one on disk was made for the same files and includes; True when written.

        The headers they include that no folder holds are written beside it
        (`missing_headers`), whether or not the database changed.
        """
        includes = self._includes(sorted(_relative(self.root, path) for path in files))
        folders, included, provided = _resolve(includes)
        user = _user_flags(self.root)
        outside = unprovided(includes, provided, user, self.root)
        flags = [*user, *(f"-isystem{folder}" for folder in outside.folders)]
        # the root too: a tree moved with its `.codeanchor/` needs entries naming it
        key = content_hash(json.dumps([_SCHEMA, str(self.root), flags, includes]).encode())
        try:
            missing = json.dumps(outside.missing, indent=1).encode()
            _write_if_changed(self._file(_MISSING), missing)
            key_file, database = self._file(_KEY), self._file(DATABASE)
            if database.is_file() and _read(key_file) == key.encode():
                return False
            entries = commands(self.root, includes, flags, folders, included)
            _replace(database, json.dumps(entries, indent=1).encode())
            _replace(key_file, key.encode())
        except OSError:
            return False
        return True

    def _file(self, name: str) -> Path:
        return state_file(self.root, f"{FOLDER}/{name}")

    def _includes(self, files: list[str]) -> dict[str, tuple[Include, ...]]:
        """The `#include` lines of `files`, read again where the stat key moved."""
        seen: dict[str, tuple[FileStamp, tuple[Include, ...]]] = {}
        found: dict[str, tuple[Include, ...]] = {}
        now = time.time_ns()
        for path in files:
            stamp = FileStamp.of(self.root / path)
            if stamp is None:
                continue
            before = self._seen.get(path)
            if before is not None and before[0] == stamp:
                found[path] = before[1]
            else:
                found[path] = includes_of(_read(self.root / path))
            if settled(stamp, now):
                seen[path] = (stamp, found[path])
        self._seen = seen
        return found


def missing_headers(root: Path) -> dict[str, list[str]]:
    """The headers the tree includes that no folder holds, with their includers, as
    the last update of its generated database found (none when it has its own)."""
    if has_own_database(root):
        return {}
    try:
        data = json.loads(_read(root / STATE_DIR / FOLDER / _MISSING) or b"{}")
    except ValueError:
        return {}
    return {str(k): [str(f) for f in v] for k, v in data.items()} if isinstance(data, dict) else {}


def commands(
    root: Path,
    includes: Mapping[str, Sequence[Include]],
    flags: list[str],
    folders: set[str],
    included: set[str],
) -> list[dict[str, object]]:
    """The database's entries for the files of `includes` (root-relative POSIX
    paths), given the include `folders` they need and the headers `included`."""
    include = [f"-I{root / folder}" for folder in sorted(folders)]
    cpp = any(_SOURCES.get(_suffix(path)) == "c++" for path in includes)
    entries: list[dict[str, object]] = []
    for path in includes:
        suffix = _suffix(path)
        if suffix in _SOURCES:
            language = ["-x", _SOURCES[suffix]]
        elif path in included:
            continue
        else:
            header = "c++" if cpp or suffix in _CPP_HEADERS else "c"
            language = ["-x", f"{header}-header"]
        driver = "c++" if "c++" in language[1] else "cc"
        absolute = str(root / path)
        arguments = [driver, *language, _NO_ERROR_LIMIT, *flags, *include, "-c", absolute]
        entries.append({"directory": str(root), "file": absolute, "arguments": arguments})
    return entries


def _resolve(
    includes: Mapping[str, Sequence[Include]],
) -> tuple[set[str], set[str], set[str]]:
    """The folders `-I` must name for `includes` to find the tree's headers, the
    headers some file includes, and the spellings the tree provides."""
    by_name = _headers_by_name(includes)
    folders: set[str] = set()
    included: set[str] = set()
    provided: set[str] = set()
    for includer, spelled_names in includes.items():
        beside = PurePosixPath(includer).parent
        for spelled, _ in spelled_names:
            local = posixpath.normpath((beside / spelled).as_posix())
            if local in includes:
                included.add(local)
                provided.add(spelled)
                continue
            for header in by_name.get(PurePosixPath(spelled).name, ()):
                if header == spelled or header.endswith("/" + spelled):
                    folders.add(header[: -len(spelled)].rstrip("/"))
                    included.add(header)
                    provided.add(spelled)
    return folders, included, provided


def _headers_by_name(files: Iterable[str]) -> dict[str, list[str]]:
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in files:
        if _suffix(path) not in _SOURCES:
            by_name[PurePosixPath(path).name].append(path)
    return by_name


def _user_flags(root: Path) -> list[str]:
    """The flags of the root's compile_flags.txt (one per line), or none."""
    text = _read(root / _FLAGS_FILE).decode("utf-8", "replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _relative(root: Path, path: str) -> str:
    return Path(path).relative_to(root).as_posix()


def _suffix(path: str) -> str:
    return PurePosixPath(path).suffix.lower()


def _read(path: Path) -> bytes:
    """The bytes of `path`, or none when it is unreadable or a symlink (never followed)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def _write_if_changed(path: Path, data: bytes) -> None:
    if _read(path) != data:
        _replace(path, data)


def _replace(path: Path, data: bytes) -> None:
    """Write `path` whole, at once (a reader never sees half of it; a link there is
    replaced, never followed)."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.unlink(missing_ok=True)
    temporary.write_bytes(data)
    os.replace(temporary, path)
