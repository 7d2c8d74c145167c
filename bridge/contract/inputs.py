"""Text that arrives from outside (command-line words, MCP arguments) checked
before anything else sees it.

Every string must be text a language server, SQLite and JSON can carry: no NUL
character and no lone UTF-16 surrogate (what Python makes of command-line
bytes that are not UTF-8, and what a JSON `\\ud800` escape decodes to). Paths
must also fit the operating system's limits. Each failure is a BadInputError
that names the argument and shows the value shortened and escaped, so the
message stays one readable line.
"""

from __future__ import annotations

from collections.abc import Mapping

from bridge.contract.errors import BadInputError

PATH_MAX_BYTES = 4095
"""The longest path Linux accepts (PATH_MAX, less the terminating NUL)."""
NAME_MAX_BYTES = 255
"""The longest single file name Linux file systems accept (NAME_MAX)."""
SHOWN_CHARS = 80


def shown(value: str) -> str:
    """`value` for an error message: escaped (repr) and cut to a readable length."""
    text = value if len(value) <= SHOWN_CHARS else value[: SHOWN_CHARS - 1] + "…"
    return repr(text)


def check_text(name: str, value: str) -> str:
    """`value` itself, when it is text every layer can carry; else a BadInputError."""
    if "\x00" in value:
        raise BadInputError(
            f"{name} {shown(value)} contains a NUL character",
            hint="remove it: no path, node ID or name can contain one",
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInputError(
            f"{name} {shown(value)} is not valid UTF-8 text (it holds undecodable bytes "
            "or a lone surrogate)",
            hint="pass UTF-8 text",
        ) from None
    return value


def check_arguments(arguments: Mapping[str, object]) -> None:
    """Check every string in a tool call's arguments, lists and mappings included."""
    for name, value in arguments.items():
        _check_value(f"argument `{name}`", value)


def _check_value(name: str, value: object) -> None:
    if isinstance(value, str):
        check_text(name, value)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_value(name, item)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _check_value(name, key)
            _check_value(name, item)


def check_path_length(path: str) -> str:
    """`path` itself, when the operating system could hold a file by that name."""
    encoded = path.encode("utf-8", errors="surrogateescape")
    if len(encoded) > PATH_MAX_BYTES:
        raise BadInputError(
            f"path {shown(path)} is {len(encoded)} bytes long; the system allows {PATH_MAX_BYTES}",
            hint="pass a shorter path",
        )
    longest = max(encoded.split(b"/"), key=len)
    if len(longest) > NAME_MAX_BYTES:
        raise BadInputError(
            f"path {shown(path)} has a {len(longest)}-byte name; the system allows "
            f"{NAME_MAX_BYTES} bytes per name",
            hint="pass a shorter path",
        )
    return path
