"""Documented command lines checked against what exists, without running them.

A `codeanchor ...` line (a synopsis such as `codeanchor nav def|refs TARGET
[--name NAME]`, or a command that cannot run in the test suite) must name
commands the CLI has, and options those commands take. A line that runs a
script of the repository (`bash scripts/demo.sh`, `.venv/bin/python
scripts/bench_map.py --runs 3`) must name a script that is there, and options
it defines.
"""

from __future__ import annotations

import argparse
import re
import shlex
from functools import cache

from bridge.cli.main import build_parser
from tests.docs.pages import REPO

COMMAND = re.compile(r"[a-z][a-z-]*(\|[a-z][a-z-]*)*")
"""A command word, or alternatives (`def|refs`)."""
OPTION = re.compile(r"--[a-z][\w-]*")


def words_of(line: str) -> list[str]:
    """The words of a command line without its comment, brackets and `|` between
    options (`[--status | --revoke]` is `--status`, `--revoke`)."""
    line = re.sub(r"(^|\s)#.*$", "", line)
    try:
        raw = shlex.split(line)
    except ValueError:  # an apostrophe in prose-like text
        raw = line.split()
    cleaned = (word.strip("[]") for word in raw)
    return [word for word in cleaned if word not in {"", "|", "..."}]


def command_problems(line: str) -> list[str]:
    """What is wrong with a documented `codeanchor ...` line (empty when nothing)."""
    words = words_of(line)
    if words[:1] != ["codeanchor"]:
        return [f"not a codeanchor command: {line}"]
    paths: list[tuple[str, ...]] = [()]
    problems: list[str] = []
    rest = words[1:]
    while rest and _choices(_parser(paths[0])) and not rest[0].startswith("-"):
        word, rest = rest[0], rest[1:]
        if not COMMAND.fullmatch(word):
            return [f"`{line}`: {word!r} where a command of {_name(paths[0])} belongs"]
        walked = []
        for path in paths:
            choices = _choices(_parser(path))
            for name in word.split("|"):
                if name in choices:
                    walked.append((*path, name))
                else:
                    problems.append(f"`{line}`: {_name((*path, name))} is no command")
        if not walked:
            return problems
        paths = walked
    named = {word.split("=")[0] for word in rest if word.startswith("--")}
    for path in paths:
        unknown = sorted(named - _options(path))
        if unknown:
            problems.append(f"`{line}`: {_name(path)} takes no {', '.join(unknown)}")
    return problems


def script_problems(line: str) -> list[str]:
    """What is wrong with a documented line that runs files of the repository."""
    words = words_of(line)
    problems = [
        f"`{line}`: {word} is not in the repository"
        for word in words
        if word.startswith(("scripts/", ".venv/")) and not (REPO / word).exists()
    ]
    if any(word.endswith(".py") and word.startswith("scripts/") for word in words):
        defined = _script_options()
        problems += [
            f"`{line}`: no script under scripts/ defines {word}"
            for word in words
            if OPTION.fullmatch(word.split("=")[0]) and word.split("=")[0] not in defined
        ]
    return problems


@cache
def _parser(path: tuple[str, ...]) -> argparse.ArgumentParser:
    """The parser of the command `path` (`()`: codeanchor itself)."""
    parser = build_parser(path[:1])
    for word in path:
        parser = _choices(parser)[word]
    return parser


def _choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The commands under `parser` (none for a command that takes no command)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@cache
def _options(path: tuple[str, ...]) -> frozenset[str]:
    """The options command `path` takes, as its help lists them."""
    return frozenset(OPTION.findall(_parser(path).format_help()))


@cache
def _script_options() -> frozenset[str]:
    """Every `"--option"` string literal in the Python files under scripts/."""
    found: set[str] = set()
    for source in (REPO / "scripts").rglob("*.py"):
        found.update(re.findall(r"""["'](--[a-z][\w-]*)["']""", source.read_text()))
    return frozenset(found)


def _name(path: tuple[str, ...]) -> str:
    return "`" + " ".join(("codeanchor", *path)) + "`"
