"""The `#include` lines of C and C++ files, and the headers nothing provides.

A tree often includes headers from outside it (`<Python.h>`, `<zlib.h>`): when
neither the tree, the root's compile_flags.txt folders, nor the system's usual
include folders hold one, clangd parses every file including it with errors,
and answers miss much of what those files hold (on mypyc's lib-rt, references
found 45% of the uses without Python.h, 100% with it). A header that exactly
one folder below /usr/include holds (`/usr/include/python3.11/Python.h`) gets
that folder searched; the others are named, so that answers can say it. An
include inside `#if`/`#ifdef` (other than the file's include guard) is not
counted: it is often for another platform.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(\w+)[ \t]*(.*)$", re.MULTILINE)
_SPELLED = re.compile(rb'^[<"]([^>"\n]+)[>"]')
_LIBRARY_ROOTS = ("/usr/local/include", "/usr/include")
_SYSTEM_FOLDERS = (
    "/usr/local/include",
    "/usr/include/*-linux-gnu",
    "/usr/include",
    "/usr/include/c++/*",
    "/usr/include/*-linux-gnu/c++/*",
    "/usr/lib/gcc/*/*/include",
    "/usr/lib/clang/*/include",
    "/usr/lib/llvm-*/lib/clang/*/include",
)
# What every compiler provides itself (its resource folder may be elsewhere).
_COMPILER_HEADERS = frozenset(
    {
        "float.h",
        "iso646.h",
        "limits.h",
        "stdalign.h",
        "stdarg.h",
        "stdatomic.h",
        "stdbool.h",
        "stddef.h",
        "stdint.h",
        "stdnoreturn.h",
        "tgmath.h",
        "varargs.h",
    }
)

Include = tuple[str, bool]
"""A header as an `#include` line spells it, and whether the line is unconditional."""


def includes_of(text: bytes) -> tuple[Include, ...]:
    """The `#include`/`#import` lines of a C or C++ file, in order."""
    found: list[Include] = []
    depth = 0
    guard_depth = 0
    """1 while the file's include guard (a first `#ifndef X`, `#define X`) is open."""
    guard: bytes | None = None
    for number, match in enumerate(_DIRECTIVE.finditer(text)):
        directive, words = match.group(1), match.group(2).split()
        candidate, guard = guard, None
        if directive in (b"if", b"ifdef", b"ifndef"):
            depth += 1
            if number == 0 and directive == b"ifndef" and words:
                guard = words[0]
        elif directive == b"define" and candidate is not None and words[:1] == [candidate]:
            guard_depth = 1
        elif directive == b"endif":
            depth = max(0, depth - 1)
        elif directive in (b"include", b"import"):
            spelled = _SPELLED.match(match.group(2).strip())
            if spelled is not None:
                name = spelled.group(1).decode("utf-8", "replace").strip()
                found.append((name, depth <= guard_depth))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Unprovided:
    """What the tree includes from outside it, and where that was found."""

    folders: tuple[str, ...]
    """System folders one level below /usr/include (or /usr/local/include) that are
    the only ones holding a header nothing else provides (`/usr/include/python3.11`
    for Python.h): searching them (`-isystem`) finds it."""
    missing: dict[str, list[str]]
    """Each header still found nowhere, with the files that include it."""


def unprovided(
    includes: Mapping[str, Sequence[Include]],
    provided: Iterable[str],
    flags: Sequence[str],
    root: Path,
    system: tuple[Sequence[str], Sequence[str]] = (_SYSTEM_FOLDERS, _LIBRARY_ROOTS),
) -> Unprovided:
    """The headers included unconditionally that neither the tree (`provided`: the
    spellings it resolves), the `-I`/`-isystem` folders of `flags` (relative to
    `root`) nor the system's include folders hold: a header found in exactly one
    subfolder of a library root (`system[1]`) adds that folder, the rest are missing.
    """
    resolved = set(provided) | _COMPILER_HEADERS
    patterns, library_roots = system
    searched = [*_flag_folders(flags, root), *_globbed(patterns)]
    added: list[str] = []
    missing: dict[str, list[str]] = {}
    for includer, spelled in includes.items():
        for name, unconditional in spelled:
            if not unconditional or name in resolved:
                continue
            if not _held(name, [*searched, *added]):
                found = _globbed(os.path.join(pattern, "*", name) for pattern in library_roots)
                if len(found) != 1:
                    missing.setdefault(name, []).append(includer)
                    continue
                added.append(found[0][: -len(name) - 1])
            resolved.add(name)
    return Unprovided(tuple(added), missing)


def _held(name: str, folders: Iterable[str]) -> bool:
    return any(os.path.isfile(os.path.join(folder, name)) for folder in folders)


def _flag_folders(flags: Sequence[str], root: Path) -> list[str]:
    folders = []
    for index, flag in enumerate(flags):
        for option in ("-I", "-isystem", "-iquote"):
            if flag == option and index + 1 < len(flags):
                folders.append(str(root / flags[index + 1]))
            elif flag.startswith(option) and len(flag) > len(option):
                folders.append(str(root / flag[len(option) :]))
    return folders


def _globbed(patterns: Iterable[str]) -> list[str]:
    return [path for pattern in patterns for path in sorted(glob.glob(pattern))]
