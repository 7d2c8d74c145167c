"""`codeanchor memory ...`: anchored memories from the command line.

    add, check, import, export, list, show, recall, verify, supersede, retire, review

Every subcommand takes `--store PATH` (else $CODEANCHOR_STORE, else
`<root>/.codeanchor/memory.db`) besides `--root` and `--json`. `check` exits
1 when a checked memory is stale; bad input exits 2 and writes nothing.
`--json` prints the shapes `memory.views` builds, the `data` of the memory_*
MCP tools. `check` confirms the symbols it found with a language server
when one is installed for their language (`--no-live`: not).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bridge.cli.common import print_json, report_warning
from bridge.cli.views import memory as views
from bridge.cli.views.text import Page
from bridge.config import ConfigError, load_config, memory_settings
from memory import (
    MEMORY_STATUSES,
    ORIGINS,
    CheckSettings,
    MemoryInputError,
    MemoryService,
    NewMemory,
    checks,
    diff_files,
    export_lines,
    hidden_line,
    import_file,
    memory_check,
    memory_view,
    migrate_store,
    recalled,
    redact,
    retired,
    review_stale,
    saved,
    store_location,
    superseded,
)

Run = Callable[[MemoryService, argparse.Namespace], int]


def register(memory: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Add the `memory` command family to its parser."""
    common = argparse.ArgumentParser(add_help=False, parents=[parent])
    common.add_argument(
        "--store",
        metavar="PATH",
        help="memory store (default: $CODEANCHOR_STORE, else <root>/.codeanchor/memory.db)",
    )
    commands = memory.add_subparsers(dest="memory_command", required=True, metavar="ACTION")

    def add(name: str, run: Run, help_text: str) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = commands.add_parser(
            name, parents=[common], help=help_text
        )
        parser.set_defaults(handler=lambda args: _with_service(args, run))
        return parser

    p = add("add", _add, "save a memory anchored to code (refs must resolve now)")
    p.add_argument("--text", required=True)
    p.add_argument(
        "--ref",
        action="append",
        required=True,
        metavar="REF",
        help="path, path#Qual.Name or path:START-END (repeatable)",
    )
    p.add_argument("--kind", default="fact", help="decision, convention, known_fix, fact, ...")
    p.add_argument("--tag", action="append", default=[], help="a tag (repeatable)")
    p.add_argument("--origin", choices=ORIGINS, default="human")
    p.add_argument("--draft", action="store_true", help="save as a draft (status stays draft)")

    p = add("check", _check, "check memories against the code now (exit 1 when any is stale)")
    p.add_argument("ids", nargs="*", metavar="ID")
    p.add_argument(
        "--deps",
        action="store_true",
        help="also warn when a symbol's direct callees changed (opens the code map)",
    )
    p.add_argument(
        "--since",
        metavar="COMMIT",
        help="only the memories the diff from COMMIT to the working tree moved, modified or "
        "deleted references of, or changed callees of (opens the code map)",
    )
    p.add_argument(
        "--no-live",
        action="store_true",
        help="do not confirm found symbols with a language server (by default one is "
        "started for the languages that need it, when installed)",
    )

    p = add("import", _import, "import memories from a JSONL file (all or nothing)")
    p.add_argument("file", metavar="FILE.jsonl")

    p = add("export", _export, "export memories as JSONL, with check results")
    p.add_argument("ids", nargs="*", metavar="ID")

    p = add("list", _list, "list memories (no check)")
    p.add_argument("--status", action="append", default=[], choices=MEMORY_STATUSES)
    p.add_argument("--kind")
    p.add_argument("--tag")

    p = add("show", _show, "one memory with its check")
    p.add_argument("id", metavar="ID")

    p = add("recall", _recall, "search memories; each hit is checked")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--include-stale", action="store_true", help="also return stale memories")

    p = add("verify", _verify, "re-anchor memories to the code now; sets last_verified_at")
    p.add_argument("ids", nargs="+", metavar="ID")

    p = add("supersede", _supersede, "replace a memory by a new one, linked from the old")
    p.add_argument("id", metavar="ID")
    p.add_argument("--text", required=True)
    p.add_argument(
        "--ref",
        action="append",
        default=[],
        metavar="REF",
        help="references of the new memory (default: the old ones, where they are now)",
    )
    p.add_argument("--kind")
    p.add_argument("--tag", action="append", default=None)

    p = add("retire", _retire, "retire a memory (kept, never recalled)")
    p.add_argument("id", metavar="ID")

    add("review", _review, "walk through stale memories interactively (needs a terminal)")

    p = commands.add_parser(
        "migrate", parents=[common], help="copy every memory to another store (all or nothing)"
    )
    p.add_argument("--to", required=True, metavar="LOCATION", help="a SQLite file or DSN")
    p.set_defaults(handler=_migrate)


def _with_service(args: argparse.Namespace, run: Run) -> int:
    root: Path = args.root
    try:
        settings = memory_settings(load_config(root))
    except ConfigError as exc:  # a broken configuration keeps its settings, not the memories, away
        report_warning(f"memory checks use the default settings: {exc.message}")
        settings = CheckSettings()
    with MemoryService(root, store_location(root, args.store), settings=settings) as service:
        return run(service, args)


def _add(service: MemoryService, args: argparse.Namespace) -> int:
    memory = service.save(
        NewMemory(args.text, tuple(args.ref), args.kind, tuple(args.tag), args.origin, args.draft)
    )
    _out(args, saved(memory), lambda page: page.add(f"saved {memory.id}: {views.refs(memory)}"))
    return 0


def _check(service: MemoryService, args: argparse.Namespace) -> int:
    if args.deps or args.since:
        from map import CodeMap  # the graph library: only for --deps and --since

        service.code_map = CodeMap.open(service.root)
    if args.since:
        return _check_since(service, args)
    if args.no_live:
        results = service.check(args.ids)
    else:
        from bridge.tools.live_memory import check_live  # language servers: only for `check`

        results, notes = check_live(service, args.ids)
        for note in notes:
            report_warning(note)
    _out(args, checks(results), lambda page: views.checks(page, results))
    return 1 if any(r.status == "stale" for r in results) else 0


def _check_since(service: MemoryService, args: argparse.Namespace) -> int:
    """`check --since COMMIT`: the memories the uncommitted diff touches (exit 1: some)."""
    if args.ids:
        raise MemoryInputError("pass memory IDs or --since, not both")
    diff = diff_files(service.root, args.since)
    found = service.touched_by(diff)
    if found and not args.no_live:
        from bridge.tools.live_memory import (
            touched_live,  # language servers: only for what it found
        )

        found, notes = touched_live(service.root, found)
        for note in notes:
            report_warning(note)
    shown = [
        {
            **memory_check(t.check),
            "text": t.check.memory.text,
            "touchedRefs": [str(r.anchor.spec) for r in t.refs],
            "calleesChanged": list(t.callees),
        }
        for t in found
    ]
    _out(
        args,
        {"since": diff.since, "memories": shown},
        lambda page: (
            views.checks(page, [t.check for t in found]) if found else page.add("no memory touched")
        ),
    )
    return 1 if found else 0


def _import(service: MemoryService, args: argparse.Namespace) -> int:
    memories = import_file(service, Path(args.file))
    _out(
        args,
        {"ids": [m.id for m in memories]},
        lambda page: page.add(f"imported {len(memories)} memories"),
    )
    return 0


def _export(service: MemoryService, args: argparse.Namespace) -> int:
    for line in export_lines(service.inspect(args.ids)):
        sys.stdout.write(line + "\n")
    return 0


def _list(service: MemoryService, args: argparse.Namespace) -> int:
    memories = service.select(args.status, kind=args.kind, tag=args.tag)
    _out(
        args,
        {"memories": [memory_view(m) for m in memories]},
        lambda page: views.memories(page, memories),
    )
    return 0


def _show(service: MemoryService, args: argparse.Namespace) -> int:
    result = service.show(args.id)
    data = {"memory": memory_view(result.memory), "check": memory_check(result)}
    _out(args, data, lambda page: views.shown(page, result))
    return 0


def _recall(service: MemoryService, args: argparse.Namespace) -> int:
    found = service.recall(args.query, limit=args.limit, include_stale=args.include_stale)
    data = recalled(args.query, found)
    hidden = hidden_line(found.stale_hidden) if found.stale_hidden else None
    _out(args, data, lambda page: views.hits(page, found.hits, hidden))
    return 0


def _verify(service: MemoryService, args: argparse.Namespace) -> int:
    memories = service.verify_many(args.ids)
    _out(
        args,
        {"memories": [saved(m) for m in memories]},
        lambda page: views.verified(page, memories),
    )
    return 0


def _supersede(service: MemoryService, args: argparse.Namespace) -> int:
    new = service.supersede(args.id, args.text, args.ref, kind=args.kind, tags=args.tag)
    _out(
        args,
        superseded(new, args.id),
        lambda page: page.add(f"{args.id} superseded by {new.id}: {views.refs(new)}"),
    )
    return 0


def _retire(service: MemoryService, args: argparse.Namespace) -> int:
    memory = service.retire(args.id)
    _out(args, retired(memory), lambda page: page.add(f"retired {memory.id}"))
    return 0


def _migrate(args: argparse.Namespace) -> int:
    root: Path = args.root
    source, target = store_location(root, args.store), store_location(root, args.to)
    copied = migrate_store(root, source, target)
    shown = redact(str(target))
    _out(
        args, {"copied": copied, "to": shown}, lambda page: page.add(f"copied {copied} to {shown}")
    )
    return 0


def _review(service: MemoryService, args: argparse.Namespace) -> int:
    # With --json the walk talks on stderr: stdout carries only the summary.
    summary = review_stale(service, sys.stdin, sys.stderr if args.json else sys.stdout)
    if args.json:
        print_json(summary)
    return 0


def _out(args: argparse.Namespace, data: Any, human: Callable[[Page], object]) -> None:
    """`data` as JSON with --json, else what `human` writes on a page."""
    if args.json:
        print_json(data)
        return
    page = Page()
    human(page)
    page.print()
