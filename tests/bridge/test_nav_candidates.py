"""The candidate scan, the verdict and the priming order, on small trees (no servers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.contract.nav_shapes import SITE_TEXT_CHARS, checked, verdict_warnings
from tests.conftest import write_tree
from verify import (
    PRIME_CAP,
    Priming,
    Question,
    Scan,
    Site,
    files_to_prime,
    judge,
    label,
    name_at,
    names_code,
    prime_cap,
    scan,
)

TS = (".ts", ".js")


def _site(path: str, line: int, role: str = "call", call_like: bool = True) -> Site:
    return Site(path, line, 1, "", role, call_like)  # type: ignore[arg-type]


def _scan(*sites: Site, capped: bool = False) -> Scan:
    return Scan(name="f", sites=sites, files_scanned=3, ms=1.0, capped=capped)


def test_the_scan_finds_the_word_and_the_map_says_what_each_line_holds(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "src/a.ts": "export function fetchAll(): number {\n  return 1;\n}\n",
            "test/b.ts": (
                'import { fetchAll } from "../src/a";\n'
                "// fetchAll( is mentioned here\n"
                "export const n = fetchAll();\n"
                'const s = "fetchAllX";\n'
            ),
            "notes.md": "fetchAll\n",
        },
    )
    found = scan(root, "fetchAll", TS)
    assert sorted({s.path for s in found.sites}) == ["src/a.ts", "test/b.ts"]
    assert found.files_scanned == 2
    assert not found.capped
    assert {s.source for s in found.sites} == {"text"}  # nothing parsed yet
    labelled = label(root, "fetchAll", found.sites)
    seen = {(s.path, s.line): (s.role, s.source, s.call_like) for s in labelled.sites}
    assert seen == {
        ("src/a.ts", 1): ("definition", "map", True),
        ("test/b.ts", 1): ("import", "map", False),
        ("test/b.ts", 2): ("mention", "text", True),
        ("test/b.ts", 3): ("call", "map", True),
    }
    assert labelled.unparsed_files == 0


def test_code_naming_the_symbol_is_a_use_and_only_comments_and_strings_are_mentions(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path,
        {
            "shop/cart.py": (
                "def total(order):\n"
                "    return order.total + 2\n"  # an attribute read: code
                "# order.total is summed here\n"
                "label = 'the total of the order'\n"
                "shown = f'{order.total}'\n"  # code inside an f-string
            ),
        },
    )
    labelled = label(root, "total", scan(root, "total", (".py",)).sites)
    seen = {s.line: (s.role, s.source) for s in labelled.sites}
    assert seen == {
        1: ("definition", "map"),
        2: ("use", "map"),
        3: ("mention", "text"),
        4: ("mention", "text"),
        5: ("use", "map"),
    }


def test_labelling_stops_at_its_file_limit(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {f"m{n}.ts": "go();\n" for n in range(3)})
    labelled = label(root, "go", scan(root, "go", TS).sites, max_files=2)
    assert [s.role for s in labelled.sites] == ["call", "call", None]
    assert labelled.unparsed_files == 1
    verdict = judge(
        "references",
        answer=set(),
        scan=Scan("go", labelled.sites, 3, 1.0, capped=False),
        target=("m0.ts", 1),
        unparsed_files=1,
    )
    assert "scan_capped" in [r.code for r in verdict.reasons]
    assert checked(verdict)["unconfirmed"][-1]["seenAs"] == "unparsed"


def test_a_private_name_is_not_the_public_one(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path, {"a.ts": "class K {\n  #send() {}\n  send() { this.#send(); }\n}\n"}
    )
    assert {s.line for s in scan(root, "send", TS).sites} == {3}
    assert {s.line for s in scan(root, "#send", TS).sites} == {2, 3}


def test_the_name_at_a_column_is_the_identifier_there() -> None:
    line = "  return mergeHeaders(this.#headers, 42);"
    assert name_at(line, line.index("mergeHeaders") + 3) == "mergeHeaders"
    assert name_at(line, line.index("#headers")) == "#headers"
    assert name_at(line, line.index("42")) is None


def test_an_answer_holding_every_candidate_is_complete() -> None:
    verdict = judge(
        "callers",
        answer={("a.ts", 3), ("b.ts", 7)},
        scan=_scan(_site("a.ts", 3), _site("b.ts", 7), _site("a.ts", 1, "definition")),
        target=("a.ts", 1),
    )
    fields = checked(verdict)
    assert fields["completeness"] == "complete"
    assert fields["completenessReasons"] == []
    assert fields["unconfirmed"] == []
    assert fields["crossCheck"]["candidateSites"] == 2


def test_unconfirmed_candidates_are_listed_apart_with_their_source() -> None:
    verdict = judge(
        "references",
        answer={("a.ts", 3)},
        scan=_scan(_site("a.ts", 3), _site("c.ts", 2, "mention", False), _site("d.ts", 5)),
        target=("a.ts", 1),
    )
    fields = checked(verdict)
    assert fields["completeness"] == "partial"
    assert [r["code"] for r in fields["completenessReasons"]] == [
        "unconfirmed_candidates",
        "outside_project",
    ]
    assert [(u["path"], u["line"], u["source"]) for u in fields["unconfirmed"]] == [
        ("d.ts", 5, "map"),
        ("c.ts", 2, "text"),
    ]
    assert verdict_warnings(verdict) == [
        "partial answer (unconfirmed_candidates, outside_project): see data.completenessReasons"
    ]


@pytest.mark.parametrize("question", ["references", "callers"])
def test_comments_and_other_symbols_definitions_are_listed_but_never_make_it_partial(
    question: Question,
) -> None:
    verdict = judge(
        question,
        answer={("a.ts", 3)},
        scan=_scan(
            _site("a.ts", 3),
            _site("c.ts", 2, "mention", True),
            _site("e.ts", 7, "definition", False),
        ),
        target=("a.ts", 1),
    )
    fields = checked(verdict)
    assert fields["completeness"] == "complete", fields["completenessReasons"]
    assert ("c.ts", 2) in {(u["path"], u["line"]) for u in fields["unconfirmed"]}
    assert verdict_warnings(verdict) == []


def test_a_declaration_left_out_on_purpose_is_no_candidate() -> None:
    verdict = judge(
        "references",
        answer={("a.ts", 3)},
        scan=_scan(_site("a.ts", 1, "definition"), _site("a.ts", 3)),
        target=("a.ts", 1),
        excluded={("a.ts", 1)},
    )
    assert verdict.complete


def test_loading_and_a_capped_priming_make_an_answer_partial() -> None:
    priming = Priming(opened=("b.ts",), not_opened=("c.ts", "d.ts"), cap=1, ms=5.0)
    verdict = judge(
        "references",
        answer={("a.ts", 3)},
        scan=_scan(_site("a.ts", 3)),
        target=("a.ts", 1),
        loading=True,
        priming=priming,
    )
    codes = [r.code for r in verdict.reasons]
    assert codes == ["server_loading", "priming_capped"]
    assert checked(verdict)["priming"] == {
        "filesOpened": 1,
        "ms": 5.0,
        "cap": 1,
        "capHit": True,
        "filesNotOpened": ["c.ts", "d.ts"],
        "failed": None,
    }
    assert verdict_warnings(verdict) == [
        "partial answer (priming_capped): see data.completenessReasons"
    ]


def test_a_definition_found_stands_alone_and_none_found_lists_the_map_definitions() -> None:
    found = _scan(_site("a.ts", 1, "definition"), _site("h.ts", 2, "definition"))
    assert judge("definition", answer={("a.ts", 1)}, scan=found, target=("x.ts", 5)).complete
    missing = judge("definition", answer=set(), scan=found, target=("x.ts", 5))
    assert {u.place for u in missing.unconfirmed} == {("a.ts", 1), ("h.ts", 2)}


def test_unconfirmed_sites_list_uses_first_and_mentions_last_each_on_a_short_line() -> None:
    fixture = Site("a.ts", 3, 1, "const s = `" + "x" * 4000 + "`", "mention", False)
    sites = [_site("z.ts", n, "mention", False) for n in range(1, 40)]
    sites += [fixture, _site("m.ts", 9, "definition"), _site("n.ts", 2, "use")]
    fields = checked(judge("references", answer=set(), scan=_scan(*sites), target=("a.ts", 1)))
    assert fields["unconfirmedCount"] == len(fields["unconfirmed"]) == 42  # no fixed cap
    assert [u["seenAs"] for u in fields["unconfirmed"][:3]] == ["use", "definition", "mention"]
    assert max(len(u["text"]) for u in fields["unconfirmed"]) <= SITE_TEXT_CHARS


def test_priming_opens_files_with_calls_first_and_never_covered_ones() -> None:
    sites = [
        _site("b.ts", 1, "mention", False),
        _site("c.ts", 4, "use", True),
        _site("a.ts", 2),
        _site("d.ts", 1, "mention", False),
    ]
    assert files_to_prime(sites, covered={"a.ts"}) == ["c.ts", "b.ts", "d.ts"]


def test_the_priming_cap_leaves_room_for_the_queried_file() -> None:
    assert prime_cap(64) == PRIME_CAP
    assert prime_cap(10) == 8
    assert prime_cap(1) == 0


def test_uses_in_a_file_the_server_found_nothing_in_point_outside_its_project() -> None:
    found = _scan(
        _site("src/a.ts", 3),
        _site("test/t.ts", 4, "call"),
        _site("test/helpers.ts", 2, "definition"),
    )
    verdict = judge("references", answer={("src/a.ts", 3)}, scan=found, target=("src/a.ts", 1))
    codes = [r.code for r in verdict.reasons]
    assert codes == ["unconfirmed_candidates", "outside_project"]
    assert "test/t.ts" in verdict.reasons[1].message
    assert "helpers" not in verdict.reasons[1].message


def test_only_a_name_in_code_is_scanned_for(tmp_path: Path) -> None:
    line = "export function retryDelay(n: number): number { return n; } // retryDelay"
    root = write_tree(tmp_path, {"a.ts": line + "\n"})
    assert names_code(root, "a.ts", 0, line.index("retryDelay"))
    assert not names_code(root, "a.ts", 0, line.index("function"))
    assert not names_code(root, "a.ts", 0, line.rindex("retryDelay"))


def test_an_answer_with_no_name_to_check_says_so() -> None:
    verdict = judge("references", answer=set(), scan=None, target=("a.ts", 1), checked=False)
    assert [r.code for r in verdict.reasons] == ["not_checked"]
    assert checked(verdict)["crossCheck"] is None
    found = judge("definition", answer={("b.ts", 4)}, scan=None, target=("a.ts", 1), checked=False)
    assert found.complete


def test_a_workspace_the_server_cannot_see_whole_makes_answers_partial() -> None:
    verdict = judge(
        "references",
        answer={("a.go", 3)},
        scan=_scan(_site("a.go", 3)),
        target=("a.go", 1),
        workspace=["go.mod needs modules missing from the module cache; run go mod download"],
    )
    assert [r.code for r in verdict.reasons] == ["workspace_incomplete"]
    assert "go mod download" in verdict.reasons[0].message


def test_priming_cut_short_by_a_crash_says_so() -> None:
    priming = Priming((), ("b.ts",), cap=48, ms=3.0, failed="tsserver crashed")
    verdict = judge(
        "references", answer={("a.ts", 3)}, scan=_scan(), target=("a.ts", 1), priming=priming
    )
    assert [r.code for r in verdict.reasons] == ["priming_failed"]
    assert "tsserver crashed" in verdict.reasons[0].message
