"""`codeanchor map ...`: build the cached map and ask it graph questions.

The tools (and the graph library, the answer models and the console under
them) are imported when a command runs, not when the parser is built:
`map status --help` stays cheap.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Literal, get_args

from bridge.cli.run import run_tool, show
from bridge.cli.views import map as views
from map import SymbolKind

if TYPE_CHECKING:
    from bridge.contract.map_status_shapes import (
        BuildAnswer,
        BuildData,
        PublishAnswer,
        PublishData,
    )

KINDS = ("file", *get_args(SymbolKind))
"""The node kinds `--kind` takes (`NodeKind` of bridge.contract.map_shapes, models not loaded)."""


def register(map_parser: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Add the subcommands of `map` to its parser."""
    sub = map_parser.add_subparsers(dest="map_command", required=True, metavar="ACTION")

    build = sub.add_parser("build", parents=[parent], help="build or update the map (incremental)")
    build.add_argument(
        "--store",
        metavar="DSN",
        help="the team's PostgreSQL store to take extracts from and publish to "
        "(default: $CODEANCHOR_STORE when it is a postgresql:// DSN)",
    )
    build.set_defaults(handler=_build)

    publish = sub.add_parser(
        "publish",
        parents=[parent],
        help="build the map, then publish it linked as the map of HEAD to the team store (CI)",
    )
    publish.add_argument(
        "--store", metavar="DSN", help="the team's PostgreSQL store (default: $CODEANCHOR_STORE)"
    )
    publish.set_defaults(handler=_publish)

    status = sub.add_parser("status", parents=[parent], help="files, symbols, edges, stale files")
    status.set_defaults(handler=_status)

    show = sub.add_parser("show", parents=[parent], help="a file's outline as the map has it")
    show.add_argument("path")
    _budget(show)
    show.set_defaults(handler=_show)

    search = sub.add_parser("search", parents=[parent], help="find symbols by name/glob/re:regex")
    search.add_argument("query")
    search.add_argument(
        "--kind",
        choices=KINDS,
        help="only this kind (class, function, method, ...)",
    )
    search.add_argument("--limit", type=int, default=50)
    _budget(search)
    search.set_defaults(handler=_search)

    directions: tuple[tuple[str, Literal["in", "out"], str], ...] = (
        ("callers", "in", "what calls/uses a node"),
        ("callees", "out", "what a node calls/uses"),
    )
    for name, direction, help_text in directions:
        walk = sub.add_parser(name, parents=[parent], help=help_text)
        walk.add_argument("node_id", metavar="ID")
        walk.add_argument("--depth", type=int, default=1)
        _budget(walk)
        _verify(walk)
        walk.set_defaults(handler=_walker(direction))

    impact = sub.add_parser("impact", parents=[parent], help="what depends on a node, transitively")
    impact.add_argument("node_id", metavar="ID")
    impact.add_argument("--depth", type=int, default=2, help="edges away to go (default 2)")
    _budget(impact)
    _verify(impact)
    impact.set_defaults(handler=_impact)

    diff = sub.add_parser(
        "changes", parents=[parent], help="symbols a diff changed, their dependents, memories"
    )
    diff.add_argument("--since", default="HEAD", metavar="COMMIT")
    diff.add_argument("--until", metavar="COMMIT", help="default: the working tree")
    diff.add_argument("--depth", type=int, default=2)
    _budget(diff)
    _verify(diff)
    diff.set_defaults(handler=_changes)
    path = sub.add_parser("path", parents=[parent], help="the chain of edges between two nodes")
    path.add_argument("source", metavar="FROM")
    path.add_argument("target", metavar="TO")
    _budget(path)
    _verify(path)
    path.set_defaults(handler=_path)

    overview = sub.add_parser("overview", parents=[parent], help="the ranked repo map")
    _budget(overview)
    overview.set_defaults(handler=_overview)


def _budget(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--budget", type=int, help="answer size cap in tokens")


def _verify(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--verify", action="store_true", help="confirm each edge with the live server"
    )


def _status(args: argparse.Namespace) -> int:
    from bridge.tools import mapping

    return run_tool(args, mapping.map_status, views.status)


def _show(args: argparse.Namespace) -> int:
    from bridge.tools import mapping

    return run_tool(
        args, lambda app: mapping.map_outline(app, args.path, args.budget), views.outline
    )


def _search(args: argparse.Namespace) -> int:
    from bridge.tools import mapping

    return run_tool(
        args,
        lambda app: mapping.map_search(app, args.query, args.kind, args.limit, args.budget),
        views.search,
    )


def _impact(args: argparse.Namespace) -> int:
    from bridge.tools import mapgraph

    return run_tool(
        args,
        lambda app: mapgraph.map_impact(app, args.node_id, args.depth, args.budget, args.verify),
        views.walk,
    )


def _changes(args: argparse.Namespace) -> int:
    from bridge.tools import changes

    return run_tool(
        args,
        lambda app: changes.map_changes(
            app, args.since, args.until, args.depth, args.verify, budget=args.budget
        ),
        views.changes,
    )


def _path(args: argparse.Namespace) -> int:
    from bridge.tools import mapgraph

    return run_tool(
        args,
        lambda app: mapgraph.map_path(app, args.source, args.target, args.budget, args.verify),
        views.path,
    )


def _walker(direction: Literal["in", "out"]) -> Any:
    def handler(args: argparse.Namespace) -> int:
        from bridge.tools import mapgraph

        return run_tool(
            args,
            lambda app: mapgraph.map_neighbors(
                app,
                args.node_id,
                direction,
                None,
                args.depth,
                args.budget,
                args.verify,
            ),
            views.walk,
        )

    return handler


def _build(args: argparse.Namespace) -> int:
    return _built(args, publish=False)


def _publish(args: argparse.Namespace) -> int:
    return _built(args, publish=True)


def _built(args: argparse.Namespace, *, publish: bool) -> int:
    """Open (or build) the map with a progress bar, then update it from the disk; print
    the map_status summary and what this build did (the answer envelope with --json).
    With a team store, extracts are taken from it and published to it; `publish` then
    puts the whole map there too, as the map of the checkout's commit.

    Runs without an event loop, the answer models or the memory store: a git hook
    or a script waits for a fresh process, and what it loads is most of that wait."""
    import time

    from bridge.cli.progress import build_progress
    from bridge.contract.envelope import respond
    from bridge.tools.map_summary import summary
    from bridge.workspace import ConfiguredWorkspace
    from map import CodeMap, TeamStoreError

    app = ConfiguredWorkspace(args.root, store=args.store)
    started = time.monotonic()
    commit = None
    try:
        team = app.team.open(strict=True)
        if publish and team is None:
            raise TeamStoreError(
                f"map publish needs the team's PostgreSQL store: {app.team.why_none}",
                "pass --store postgresql://... (docs/team-store.md)",
            )
        with build_progress("building the map", enabled=not args.json) as progress:
            code_map = CodeMap.open(app.root, app.map_settings, progress, team=team)
        if team is not None and team.failure is not None:
            raise TeamStoreError(
                f"{team.shown}: the team store was lost during the build ({team.failure}); "
                "the map was built here and saved",
                "check the PostgreSQL server, then run `codeanchor map build` again",
            )
        commit = code_map.publish_snapshot() if publish else None
        report = code_map.last_report
        data: BuildData = {
            **summary(code_map.status()),
            "durationSeconds": round(time.monotonic() - started, 3),
            "changedCount": len(report.files_changed) if report else 0,
            "removedCount": len(report.files_removed) if report else 0,
            "teamStore": app.team.info(),
        }
    finally:
        app.team.close()
    shown: BuildData | PublishData = data if commit is None else {**data, "commit": commit}
    answer: BuildAnswer | PublishAnswer = app.announce(  # an untrusted snapshot_dir was unused
        respond(shown, budget_tokens=app.budget(None), map_built_at=data["builtAt"])
    )
    show(args, answer, lambda page, envelope: views.build(page, envelope, str(app.root)))
    return 0


def _overview(args: argparse.Namespace) -> int:
    from bridge.tools import mapping

    return run_tool(
        args,
        lambda app: mapping.map_overview(app, args.budget),
        views.overview,
    )
