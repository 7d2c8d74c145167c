"""The command line on hostile input: every refusal is one line on stderr and exit 2.

Each command runs in its own process, on a private copy of the bundled
example. None of these inputs reaches a language server: each is refused
first, which is also why none of them needs one.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.adversarial.cli import cli
from tests.bridge.mcp_session import example_repo

NOT_UTF8 = os.fsdecode(b"\xff\xfe")
"""Bytes that are not UTF-8, as Python hands them over from the command line."""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example repository with symlink loops in it."""
    root = example_repo(tmp_path_factory.mktemp("cli"), watch=False)
    (root / "loop_a.py").symlink_to("loop_b.py")
    (root / "loop_b.py").symlink_to("loop_a.py")
    (root / "self.py").symlink_to("self.py")
    return root


def line_of(root: Path, path: str, needle: str) -> int:
    lines = (root / path).read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if needle in text)


@pytest.mark.parametrize(
    "args",
    [
        ("nav", "def", "loop_a.py:1"),
        ("nav", "symbols", "self.py"),
        ("resolve", "loop_b.py#anything"),
        ("memory", "add", "--text", "note", "--ref", "loop_a.py"),
    ],
    ids=["nav-def", "nav-symbols", "resolve", "memory-add"],
)
def test_a_symlink_loop_is_refused_in_one_line(repo: Path, args: tuple[str, ...]) -> None:
    message = cli(repo, *args).refused()
    assert "symlink loop" in message


@pytest.mark.parametrize(
    "target",
    ["a/" * 2100 + "x.py:1", "n" * 300 + ".py:1"],
    ids=["path-over-PATH_MAX", "name-over-NAME_MAX"],
)
def test_a_path_longer_than_the_system_allows_is_refused(repo: Path, target: str) -> None:
    message = cli(repo, "nav", "def", target).refused()
    assert "the system allows" in message
    assert len(message) < 300, "the message shows the path shortened"


def test_a_memory_ref_longer_than_the_system_allows_is_refused(repo: Path) -> None:
    cli(repo, "memory", "add", "--text", "note", "--ref", "m" * 5000).refused()


@pytest.mark.parametrize(
    "args",
    [
        ("resolve", f"shop/app.py#{NOT_UTF8}"),
        ("nav", "workspace-symbols", NOT_UTF8),
        ("map", "search", NOT_UTF8),
        ("memory", "add", "--text", NOT_UTF8, "--ref", "shop/app.py"),
        ("memory", "show", NOT_UTF8),
    ],
    ids=["resolve", "workspace-symbols", "map-search", "memory-add", "memory-show"],
)
def test_bytes_that_are_not_utf8_are_refused_before_any_server_sees_them(
    repo: Path, args: tuple[str, ...]
) -> None:
    message = cli(repo, *args).refused()
    assert "not valid UTF-8" in message
    assert "crashed" not in message


def test_a_regex_that_does_not_compile_is_bad_input(repo: Path) -> None:
    done = cli(repo, "map", "search", "re:([", "--json")
    message = done.refused()
    assert "not a valid regular expression" in message
    assert done.json()["error"]["code"] == "bad_pattern"


def test_re_prefix_anchors_apply_to_names(repo: Path) -> None:
    hits = cli(repo, "map", "search", "re:^check", "--json").json()["data"]["hits"]
    assert [h["nodeId"] for h in hits] == ["shop/app.py#checkout"]
    qualified = cli(repo, "map", "search", r"re:^RateLimiter\.allow$", "--json").json()
    assert [h["nodeId"] for h in qualified["data"]["hits"]] == [
        "shop/middleware/rate_limit.py#RateLimiter.allow"
    ]


def test_an_unknown_language_is_bad_input_naming_the_known_ones(repo: Path) -> None:
    done = cli(repo, "nav", "workspace-symbols", "Cart", "--language", "cobol")
    message = done.refused()
    assert message == "codeanchor: unknown language 'cobol'"
    assert "python" in done.err and "typescript" in done.err


def test_an_empty_name_is_refused_rather_than_ignored(repo: Path) -> None:
    line = line_of(repo, "shop/app.py", "def checkout")
    message = cli(repo, "nav", "refs", f"shop/app.py:{line}", "--name", "").refused()
    assert message == "codeanchor: empty name"


def test_a_nul_byte_in_an_imported_ref_is_bad_input(repo: Path, tmp_path: Path) -> None:
    lines = tmp_path / "memories.jsonl"
    lines.write_text('{"text": "a note", "refs": ["shop/\\u0000app.py"]}\n')
    message = cli(repo, "memory", "import", str(lines)).refused()
    assert "NUL" in message


def test_a_line_number_too_long_to_mean_anything_is_refused(repo: Path) -> None:
    message = cli(repo, "nav", "hover", "shop/app.py:" + "9" * 5000).refused()
    assert "out of range" in message and len(message) < 200


def test_a_memory_line_range_too_long_to_mean_anything_is_refused(repo: Path) -> None:
    ref = "shop/app.py:" + "9" * 5000 + "-1"
    message = cli(repo, "memory", "add", "--text", "note", "--ref", ref).refused()
    assert "out of range" in message and len(message) < 200
