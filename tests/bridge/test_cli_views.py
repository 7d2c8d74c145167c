"""The command line for people and for scripts, on the bundled example.

People: each command's view is golden text (tests/bridge/golden/cli/), the same
piped and in a terminal 60 or 200 columns wide: a node ID or a path is never cut
or wrapped. Scripts: every command takes `--json` and prints one JSON document
(the answer envelope for the tools' commands), and an error is the error
envelope, `"ok": false`, on stdout.

Set CODEANCHOR_UPDATE_GOLDEN=1 to write the golden files anew (then read the diff).
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bridge.cli.main import COMMANDS, build_parser, main
from bridge.cli.wording import for_cli
from tests.adversarial.cli import CLI_TIMEOUT_S, REPO, Done
from tests.bridge.mcp_session import example_repo
from tests.conftest import require_binary

GOLDEN = Path(__file__).parent / "golden" / "cli"
ENVELOPE_KEYS = {"ok", "data", "warnings", "truncated", "mapBuiltAt", "stale"}
PRICING = "shop/pricing.py"
DISCOUNT = f"{PRICING}#apply_discount"
CHECKOUT = "shop/app.py#checkout"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

VIEWS: dict[str, list[str]] = {
    "map-show": ["map", "show", PRICING],
    "map-search": ["map", "search", "Price"],
    "map-callers-verify": ["map", "callers", DISCOUNT, "--verify"],
    "map-callees": ["map", "callees", CHECKOUT],
    "map-impact": ["map", "impact", DISCOUNT],
    "map-path": ["map", "path", CHECKOUT, DISCOUNT],
    "nav-refs": ["nav", "refs", DISCOUNT],
    "nav-callers": ["nav", "callers", DISCOUNT],
    "nav-symbols": ["nav", "symbols", "shop/cart.py"],
    "resolve": ["resolve", "shop/cart.py:20"],
}
"""Views whose text depends only on the example (no times, no machine paths)."""
WIDE = ("map-callees", "map-callers-verify")
"""Views with lines longer than 60 columns, shown in terminals of each width."""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the example with its map built and one memory saved."""
    require_binary("ty")
    root = example_repo(tmp_path_factory.mktemp("views"), watch=False)
    assert main(["map", "build", "--json", "--root", str(root)]) == 0
    assert main(["memory", "add", "--text", "no discount below zero", "--ref", DISCOUNT,
                 "--root", str(root), "--json"]) == 0  # fmt: skip
    return root


def run(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> Done:
    """`codeanchor ARGS --root ROOT` in-process: its stdout is not a terminal (piped)."""
    capsys.readouterr()
    code = main([*args, "--root", str(root)])
    captured = capsys.readouterr()
    return Done(code, captured.out, captured.err)


def in_terminal(root: Path, columns: int, *args: str) -> str:
    """What `codeanchor ARGS` prints in a terminal `columns` wide (colours stripped)."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": str(columns), "NO_COLOR": "1"}
    env.pop("TERM", None)
    with subprocess.Popen(
        [sys.executable, "-m", "bridge.cli", *args, "--root", str(root)],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        cwd=REPO,
        env=env,
    ) as child:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert child.wait(timeout=CLI_TIMEOUT_S) == 0
    os.close(leader)
    return ANSI.sub("", b"".join(chunks).decode().replace("\r\n", "\n"))


def golden(name: str, text: str) -> None:
    """`text` is the golden file `name` (written anew with CODEANCHOR_UPDATE_GOLDEN=1)."""
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("CODEANCHOR_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"{name}: the view changed (see its golden file)"


# ----------------------------------------------------------- views for people


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_each_view_is_its_golden_text(
    capsys: pytest.CaptureFixture[str], repo: Path, name: str
) -> None:
    done = run(capsys, repo, *VIEWS[name])
    assert done.code == 0, done.err
    golden(name, done.out)
    assert "None" not in done.out
    assert not re.search(r"\b[a-z]+[A-Z][a-z]+\b", done.out)  # no camelCase key


@pytest.mark.parametrize("columns", [60, 200])
@pytest.mark.parametrize("name", WIDE)
def test_a_terminal_of_any_width_shows_the_same_lines(repo: Path, name: str, columns: int) -> None:
    shown = in_terminal(repo, columns, *VIEWS[name])
    assert shown == (GOLDEN / f"{name}.txt").read_text()
    assert max(len(line) for line in shown.splitlines()) > 60  # longer than the terminal


def test_call_lines_and_verified_marks_are_shown(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    callers = run(capsys, repo, "nav", "callers", DISCOUNT).out
    assert re.search(r"total\s+method\s+shop/cart\.py:\d+\s+shop/cart\.py:\d+", callers)
    plain = run(capsys, repo, "map", "callers", DISCOUNT).out
    verified = run(capsys, repo, "map", "callers", DISCOUNT, "--verify").out
    assert "verified" not in plain
    assert "shop/cart.py#Cart.total" in verified and "verified" in verified
    assert "1 checked, 1 held" in verified


def test_a_one_shot_map_answer_is_complete_when_the_map_is(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    done = run(capsys, repo, "map", "callers", DISCOUNT, "--json")
    data = done.json()["data"]
    assert (data["completeness"], data["completenessReasons"]) == ("complete", [])


def test_memory_views_name_status_kind_and_refs(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    [memory] = run(capsys, repo, "memory", "list", "--json").json()["memories"]
    shown = run(capsys, repo, "memory", "show", memory["id"]).out.splitlines()
    assert shown[0] == f"{memory['id']}  active     fact: no discount below zero  ({DISCOUNT})"
    assert shown[2].split() == ["valid", DISCOUNT, "(unchanged)"]


def test_doctor_lists_servers_in_lines_that_are_never_cut(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    shown = run(capsys, repo, "doctor").out.splitlines()
    assert shown[0].split() == [
        "server",
        "languages",
        "default",
        "for",
        "status",
        "version",
        "/",
        "install",
    ]
    ty = next(line for line in shown if line.startswith("ty "))
    assert ty.split()[1:4] == ["python", "python", "found"]
    assert shown[-1].startswith("configuration: ")


# ----------------------------------------------------------- --json on every command


def _jsons(memory_id: str, jsonl: Path) -> dict[str, list[str]]:
    """Every command (but `serve`, a protocol) with arguments that make it succeed."""
    return {
        "map build": ["map", "build"],
        "map status": ["map", "status"],
        "map show": ["map", "show", PRICING],
        "map search": ["map", "search", "Cart"],
        "map callers": ["map", "callers", DISCOUNT],
        "map callees": ["map", "callees", CHECKOUT],
        "map impact": ["map", "impact", DISCOUNT],
        "map changes": ["map", "changes"],
        "map path": ["map", "path", CHECKOUT, DISCOUNT],
        "map overview": ["map", "overview"],
        "map publish": ["map", "publish"],
        "nav def": ["nav", "def", "shop/app.py:14", "--name", "allow"],
        "nav type-def": ["nav", "type-def", "shop/app.py:16", "--name", "cart"],
        "nav impl": ["nav", "impl", "shop/middleware/rate_limit.py#RateLimiter.allow"],
        "nav refs": ["nav", "refs", DISCOUNT],
        "nav hover": ["nav", "hover", DISCOUNT],
        "nav callers": ["nav", "callers", DISCOUNT],
        "nav callees": ["nav", "callees", CHECKOUT],
        "nav symbols": ["nav", "symbols", PRICING],
        "nav workspace-symbols": ["nav", "workspace-symbols", "Cart"],
        "nav diagnostics": ["nav", "diagnostics", PRICING],
        "nav rename": ["nav", "rename", DISCOUNT, "discounted"],
        "resolve": ["resolve", DISCOUNT],
        "memory add": ["memory", "add", "--text", "carts add up", "--ref", "shop/cart.py#Cart"],
        "memory check": ["memory", "check", "--no-live"],
        "memory import": ["memory", "import", str(jsonl)],
        "memory export": ["memory", "export"],
        "memory list": ["memory", "list"],
        "memory show": ["memory", "show", memory_id],
        "memory recall": ["memory", "recall", "discount"],
        "memory verify": ["memory", "verify", memory_id],
        "memory review": ["memory", "review"],
        "memory supersede": ["memory", "supersede", memory_id, "--text", "never below zero"],
        "memory retire": ["memory", "retire", memory_id],
        "memory migrate": ["memory", "migrate", "--to", str(jsonl.with_suffix(".db"))],
        "doctor": ["doctor"],
        "trust": ["trust", "--status"],
        "servers list": ["servers", "list"],
        "servers uninstall": ["servers", "uninstall", "bash"],  # not installed: removes none
        "setup": ["setup", "cursor", "--dry-run"],
    }


REFUSED_HERE = {
    "memory review",  # interactive: without a terminal, a refusal
    "map publish",  # without the team's PostgreSQL store (tests/map/test_team_*.py have one)
}
DOWNLOADS = {"servers install"}
"""Commands left out here because they fetch from npm (tests/lsp/test_install.py runs
`servers install --json` against a local package)."""


def _command_names() -> set[str]:
    """Every command the parser knows, as `family action` or `command`."""
    names = set()
    for command in COMMANDS:
        parser = build_parser([command.name])
        [chosen] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        own = chosen.choices[command.name]
        actions = [a for a in own._actions if isinstance(a, argparse._SubParsersAction)]
        if command.family:
            names |= {f"{command.name} {action}" for action in actions[0].choices}
        else:
            names.add(command.name)
    return names


def test_every_command_takes_json_and_prints_one_document(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    repo: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CODEANCHOR_DATA_DIR", str(tmp_path / "data"))  # servers: a private one
    jsonl = tmp_path / "memories.jsonl"
    jsonl.write_text(
        orjson.dumps({"text": "prices are per SKU", "refs": [PRICING]}).decode() + "\n"
    )
    saved = run(capsys, repo, "memory", "add", "--text", "t", "--ref", PRICING, "--json").json()
    commands = _jsons(saved["id"], jsonl)
    assert set(commands) == _command_names() - {"serve"} - DOWNLOADS
    for name, args in commands.items():
        if name.startswith("servers"):  # per user, not per repository: no --root
            capsys.readouterr()
            done = Done(main([*args, "--json"]), *capsys.readouterr())
        else:
            done = run(capsys, repo, *args, "--json")
        if name in REFUSED_HERE:
            assert (done.code, done.json()["ok"]) == (2, False), name
            continue
        assert done.code in (0, 1), (name, done.err)
        if name == "memory export":  # JSON lines: one memory a line
            assert all(orjson.loads(line)["id"] for line in done.out.splitlines()), name
            continue
        document = done.json()
        assert isinstance(document, dict), name
        if name.split()[0] in {"map", "nav", "resolve"}:
            assert set(document) == ENVELOPE_KEYS, name
            assert document["ok"] is True, name


ERRORS: list[tuple[list[str], str, int]] = [
    (["map", "callers", f"{PRICING}#PriceBok"], "unknown_id", 2),
    (["nav", "refs", "shop/app.py:999"], "bad_input", 2),
    (["map", "callers"], "bad_input", 2),  # the argument parser's refusal
    (["memory", "show", "m-000000000000"], "unknown_id", 2),
    (["map", "frob"], "bad_input", 2),
]


@pytest.mark.parametrize(("args", "code", "exit_code"), ERRORS, ids=lambda v: str(v))
def test_a_json_error_is_the_error_envelope(
    capsys: pytest.CaptureFixture[str], repo: Path, args: list[str], code: str, exit_code: int
) -> None:
    done = run(capsys, repo, *args, "--json")
    assert done.code == exit_code
    document = done.json()
    assert document["ok"] is False
    assert set(document["error"]) >= {"code", "message", "hint"}
    assert document["error"]["code"] == code
    assert done.err.startswith("codeanchor: ")


def test_hints_on_the_command_line_name_commands_and_options() -> None:
    said = for_cli(
        "pass verify=true to confirm; the map answers: map_outline (symbols), "
        "`map_search`; then memory_verify. Ask src/map_status.py#map_status. "
        "1 stale memory hidden: recall with include_stale (--include-stale) to see them"
    )
    assert said == (
        "pass --verify to confirm; the map answers: `codeanchor map show` (symbols), "
        "`codeanchor map search`; then `codeanchor memory verify`. "
        "Ask src/map_status.py#map_status. "
        "1 stale memory hidden: recall with --include-stale to see them"
    )
