"""The CLI contract: `--json` documents, node IDs, exit codes and messages.

Every command runs in-process through `bridge.cli.main.main` on a private copy
of the bundled example; expected node IDs and lines are read from the
fixture's text, never hard-coded. Each nav command starts its own language
server (the CLI builds one context per command), so nav calls are kept few.
"""

from __future__ import annotations

import contextlib
import io
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from bridge.cli.main import main
from tests.adversarial.cli import Done, cli
from tests.bridge.mcp_session import example_repo
from tests.conftest import require_binary, write_tree

PRICING = "shop/pricing.py"
CART = "shop/cart.py"
APP = "shop/app.py"
LIMITER = "shop/middleware/rate_limit.py"
ENVELOPE_KEYS = {"ok", "data", "warnings", "truncated", "mapBuiltAt", "stale"}
_DEF = re.compile(r"^(?P<indent>\s*)(?:async\s+)?(?:class|def)\s+(?P<name>\w+)")


def run_cli(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> Done:
    """Run `codeanchor ARGS --root ROOT` in-process."""
    code = main([*args, "--root", str(root)])
    captured = capsys.readouterr()
    return Done(code, captured.out, captured.err)


def envelope(result: Done) -> dict[str, Any]:
    """The envelope of a successful `--json` command."""
    assert result.code == 0, result.err
    document: dict[str, Any] = result.json()
    assert set(document) == ENVELOPE_KEYS
    assert document["ok"] is True
    return document


# ----------------------------------------------------------- fixture text


def line_of(root: Path, path: str, needle: str) -> int:
    """The 1-based line of the first line containing `needle`."""
    lines = (root / path).read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if needle in text)


def _defs(root: Path, path: str, stop: int | None = None) -> list[tuple[int, int, str]]:
    """(line, indent, node ID) of each class/def in `path`, up to line `stop`."""
    found: list[tuple[int, int, str]] = []
    stack: list[tuple[int, str]] = []
    for number, text in enumerate((root / path).read_text().splitlines(), 1):
        if stop is not None and number > stop:
            break
        match = _DEF.match(text)
        if match is None:
            continue
        indent = len(match["indent"])
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, match["name"]))
        found.append((number, indent, f"{path}#{'.'.join(name for _, name in stack)}"))
    return found


def defined_ids(root: Path, path: str) -> list[str]:
    """The node IDs of the classes and functions in `path`, in file order."""
    return [node_id for _, _, node_id in _defs(root, path)]


def enclosing_id(root: Path, path: str, needle: str) -> str:
    """The node ID of the innermost class/def around the first line holding `needle`."""
    line = line_of(root, path, needle)
    text = (root / path).read_text().splitlines()[line - 1]
    indent = len(text) - len(text.lstrip())
    inside = [node_id for _, depth, node_id in _defs(root, path, line) if depth < indent]
    return inside[-1]


def id_named(root: Path, name: str) -> str:
    """The one node ID in the fixture whose last name part is `name`."""
    [found] = [
        node_id
        for path in (PRICING, CART, APP, LIMITER)
        for node_id in defined_ids(root, path)
        if node_id.rsplit("#", 1)[1].split(".")[-1] == name
    ]
    return found


# ----------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the example, its map built once for the module."""
    require_binary("ty")
    return example_repo(tmp_path_factory.mktemp("cli"), watch=False)


@pytest.fixture(scope="module")
def built(repo: Path) -> dict[str, Any]:
    """The `data` of what `map build --json` printed (it runs once per module): the
    answer envelope, as every other command's."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["map", "build", "--json", "--root", str(repo)])
    assert code == 0
    document: dict[str, Any] = orjson.loads(out.getvalue())
    assert set(document) == ENVELOPE_KEYS and document["ok"] is True
    assert document["mapBuiltAt"] == document["data"]["builtAt"]
    data: dict[str, Any] = document["data"]
    return data


# ----------------------------------------------------------- map


def test_map_build_prints_one_json_document_counting_the_fixture(
    repo: Path, built: dict[str, Any]
) -> None:
    python_files = sorted(repo.rglob("*.py"))
    assert built["files"] == len(python_files)
    assert built["languages"] == {"python": len(python_files)}
    assert built["staleFiles"] == []
    assert datetime.fromisoformat(built["builtAt"])
    assert built["changedCount"] == len(python_files)  # a first build reads every file
    # README.md, pyproject.toml and codeanchor.toml are listed, and left out
    assert built["skipped"] == {"unsupported_language": 3}


def test_map_status_reports_the_files_the_build_skipped(
    capsys: pytest.CaptureFixture[str], repo: Path, built: dict[str, Any]
) -> None:
    status = envelope(run_cli(capsys, repo, "map", "status", "--json"))["data"]
    assert status["skipped"] == built["skipped"]


def test_map_search_answers_node_ids_with_their_lines(
    capsys: pytest.CaptureFixture[str], repo: Path, built: dict[str, Any]
) -> None:
    found = envelope(run_cli(capsys, repo, "map", "search", "PriceBook", "--json"))
    first = found["data"]["hits"][0]
    assert first["nodeId"] == f"{PRICING}#PriceBook"
    # a decorated class starts at its decorator and ends with its body (end of file)
    assert first["lines"] == [
        line_of(repo, PRICING, "@dataclass"),
        len((repo / PRICING).read_text().splitlines()),
    ]
    assert {h["nodeId"] for h in found["data"]["hits"]} >= {
        i for i in defined_ids(repo, PRICING) if "#PriceBook" in i
    }
    assert found["stale"] is False
    assert datetime.fromisoformat(found["mapBuiltAt"]) >= datetime.fromisoformat(built["builtAt"])


def test_map_show_outlines_a_file_in_order(
    capsys: pytest.CaptureFixture[str], repo: Path, built: dict[str, Any]
) -> None:
    shown = envelope(run_cli(capsys, repo, "map", "show", CART, "--json"))
    symbols = shown["data"]["symbols"]
    assert [s["nodeId"] for s in symbols] == defined_ids(repo, CART)
    assert [s["depth"] for s in symbols] == [
        s["nodeId"].partition("#")[2].count(".") for s in symbols
    ]
    add = next(s for s in symbols if s["nodeId"].endswith(".add"))
    assert add["lines"][0] == line_of(repo, CART, "def add")


def test_map_callers_and_callees_follow_the_calls(
    capsys: pytest.CaptureFixture[str], repo: Path, built: dict[str, Any]
) -> None:
    target = f"{PRICING}#apply_discount"
    callers = envelope(run_cli(capsys, repo, "map", "callers", target, "--json"))["data"]
    assert callers["direction"] == "in"
    assert [n["nodeId"] for n in callers["neighbors"]] == [
        enclosing_id(repo, CART, "apply_discount(subtotal")
    ]

    checkout = enclosing_id(repo, APP, "LIMITER.allow(")
    callees = envelope(run_cli(capsys, repo, "map", "callees", checkout, "--json"))["data"]
    called = {n["nodeId"] for n in callees["neighbors"] if n["via"] == "calls"}
    assert called >= {id_named(repo, name) for name in ("allow", "Cart", "add", "total")}


def test_map_impact_reaches_transitive_dependents(
    capsys: pytest.CaptureFixture[str], repo: Path, built: dict[str, Any]
) -> None:
    target = f"{PRICING}#apply_discount"
    impact = envelope(run_cli(capsys, repo, "map", "impact", target, "--json"))["data"]
    distance = {d["nodeId"]: d["distance"] for d in impact["dependents"]}
    assert distance[enclosing_id(repo, CART, "apply_discount(subtotal")] == 1
    assert distance[enclosing_id(repo, APP, "cart.total()")] == 2
    assert impact["count"] == len(impact["dependents"])


def test_map_overview_and_status_describe_the_whole_map(
    capsys: pytest.CaptureFixture[str], repo: Path, built: dict[str, Any]
) -> None:
    overview = envelope(run_cli(capsys, repo, "map", "overview", "--json"))["data"]
    for path in (PRICING, CART, APP, LIMITER):
        assert f"{path}:" in overview["text"]
    assert overview["symbols"] == built["symbols"]

    status = envelope(run_cli(capsys, repo, "map", "status", "--json"))["data"]
    assert (status["files"], status["symbols"]) == (built["files"], built["symbols"])
    assert status["staleFiles"] == []
    assert status["watcher"] == {"status": "stopped"}


# ----------------------------------------------------------- nav and resolve (live)


def test_nav_def_goes_from_a_use_to_the_definition(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    use = line_of(repo, APP, "LIMITER.allow(")
    found = envelope(
        run_cli(capsys, repo, "nav", "def", f"{APP}:{use}", "--name", "allow", "--json")
    )
    [definition] = found["data"]["locations"]
    assert (definition["path"], definition["line"]) == (
        LIMITER,
        line_of(repo, LIMITER, "def allow"),
    )


def test_nav_refs_lists_every_use_own_file_first(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    refs = envelope(run_cli(capsys, repo, "nav", "refs", f"{PRICING}#apply_discount", "--json"))
    locations = refs["data"]["locations"]
    assert {(r["path"], r["line"]) for r in locations} == {
        (PRICING, line_of(repo, PRICING, "def apply_discount")),
        (CART, line_of(repo, CART, "import PriceBook, apply_discount")),
        (CART, line_of(repo, CART, "apply_discount(subtotal")),
    }
    assert locations[0]["path"] == PRICING
    assert refs["data"]["count"] == len(locations)


def test_a_typescript_answer_prints_nothing_on_stderr(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "tsconfig.json": '{"include": ["src"]}\n',
            "src/core.ts": "export function helper(): number {\n  return 1;\n}\n",
            "src/main.ts": 'import { helper } from "./core";\nconsole.log(helper());\n',
        },
    )
    done = cli(root, "nav", "refs", "src/core.ts#helper")  # its own process: its own stderr
    assert done.code == 0, done.err
    assert "src/main.ts:2" in done.out
    assert done.err == ""  # no log line of the server's own notifications ($/typescriptVersion)


def test_nav_hover_shows_the_signature(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    hover = envelope(
        run_cli(capsys, repo, "nav", "hover", f"{LIMITER}#RateLimiter.allow", "--json")
    )
    assert "bool" in hover["data"]["contents"]
    assert "allow" in hover["data"]["contents"]


def test_nav_symbols_nests_the_live_outline_with_node_ids(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    outline = envelope(run_cli(capsys, repo, "nav", "symbols", LIMITER, "--json"))["data"]

    def walk(symbols: list[dict[str, Any]]) -> list[str]:
        return [i for s in symbols for i in [s["nodeId"], *walk(s.get("children", []))]]

    assert walk(outline["symbols"]) == defined_ids(repo, LIMITER)


def test_nav_callers_names_the_calling_function_and_line(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    callers = envelope(
        run_cli(capsys, repo, "nav", "callers", f"{PRICING}#apply_discount", "--json")
    )
    [caller] = callers["data"]["callers"]
    total = enclosing_id(repo, CART, "apply_discount(subtotal")
    assert caller["name"] == total.rsplit(".", 1)[1]
    assert (caller["path"], caller["line"]) == (CART, line_of(repo, CART, "def total"))
    assert caller["callLines"] == [line_of(repo, CART, "apply_discount(subtotal")]


def test_resolve_of_an_unmoved_node_is_clean(
    capsys: pytest.CaptureFixture[str], repo: Path, built: dict[str, Any]
) -> None:
    node = f"{LIMITER}#RateLimiter.allow"
    data = envelope(run_cli(capsys, repo, "resolve", node, "--json"))["data"]
    assert (data["verified"], data["mapStale"], data["relocated"]) == (True, False, False)
    assert data["currentId"] == node
    assert data["location"]["selectionLine"] == line_of(repo, LIMITER, "def allow")
    assert data["mapRange"]["selectionLine"] == data["location"]["selectionLine"]


# ----------------------------------------------------------- bad input


BAD_INPUT: list[tuple[list[str], str]] = [
    (["map", "callers", f"{PRICING}#PriceBok"], f"{PRICING}#PriceBook"),
    (["resolve", f"{PRICING}#PriceBok"], "PriceBook"),
    (["nav", "def", f"{APP}#"], "malformed node ID"),
    (["nav", "refs", f"{CART}#Cart..add"], "malformed node ID"),
    (["nav", "def", "../outside.py:1"], "outside the workspace root"),
    (["nav", "hover", "/etc/hostname:1"], "outside the workspace root"),
    (["nav", "refs", f"{APP}:999"], "past the end"),
]


@pytest.mark.parametrize(("args", "expected"), BAD_INPUT, ids=lambda v: " ".join(v))
def test_bad_input_exits_2_with_a_message_and_no_output(
    capsys: pytest.CaptureFixture[str],
    repo: Path,
    built: dict[str, Any],
    args: list[str],
    expected: str,
) -> None:
    result = run_cli(capsys, repo, *args)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("codeanchor: ")
    assert expected in result.err


def test_a_mistyped_member_id_suggests_the_nearest_id(
    capsys: pytest.CaptureFixture[str], repo: Path, built: dict[str, Any]
) -> None:
    result = run_cli(capsys, repo, "resolve", f"{PRICING}#PriceBook.prize_of")
    assert result.code == 2
    assert f"{PRICING}#PriceBook.price_of" in result.err


def test_bad_input_with_json_is_one_error_document(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    result = run_cli(capsys, repo, "nav", "refs", f"{APP}:999", "--json")
    assert result.code == 2
    error = result.json()["error"]
    assert error["code"] == "bad_input"
    assert "past the end" in error["message"]
    assert "past the end" in result.err


def test_a_root_that_is_not_a_directory_exits_2(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    not_a_dir = repo / APP
    result = run_cli(capsys, not_a_dir, "map", "status")
    assert result.code == 2
    assert result.out == ""
    assert f"--root {not_a_dir} is not a directory" in result.err


# ----------------------------------------------------------- doctor


def test_doctor_json_lists_ty_as_found(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    result = run_cli(capsys, repo, "doctor", "--json")
    servers = {s["name"]: s for s in result.json()["servers"]}
    ty = servers["ty"]
    assert ty["found"] is True
    assert ty["path"] == str(require_binary("ty"))
    assert ty["version"]
    assert "python" in ty["chosenFor"]
    missing = [s for s in servers.values() if s["chosenFor"] and not s["found"]]
    assert result.code == (1 if missing else 0)
