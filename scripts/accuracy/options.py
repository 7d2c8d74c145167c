"""What the accuracy benchmarks' command lines share: the options, the languages
chosen, and the report on stdout (a table, or JSON with --json)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from accuracy.corpora import DEFAULT_CACHE


def parser_for(doc: str | None, languages: Sequence[str]) -> argparse.ArgumentParser:
    """A parser with the shared options: --languages (of `languages`), --seed,
    --cache and --json."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0] if doc else None)
    parser.add_argument(
        "--languages",
        default=",".join(languages),
        help=f"comma-separated, of {', '.join(languages)} (default: all)",
    )
    parser.add_argument("--seed", type=int, default=8, help="the sample's seed (pinned: 8)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where corpora are kept")
    parser.add_argument("--json", action="store_true", help="machine output on stdout")
    return parser


def parsed(
    parser: argparse.ArgumentParser, argv: list[str] | None, languages: Sequence[str]
) -> argparse.Namespace:
    """The options, `languages` made a list of known languages (else a usage error)."""
    args = parser.parse_args(argv)
    args.languages = args.languages.split(",")
    unknown = set(args.languages) - set(languages)
    if unknown:
        parser.error(f"unknown language: {', '.join(sorted(unknown))}")
    return args


def emit(report: dict[str, Any], as_json: bool, table: Callable[[dict[str, Any]], None]) -> int:
    """The report on stdout, as JSON or as `table` prints it; the exit code."""
    if as_json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        table(report)
    return 0
