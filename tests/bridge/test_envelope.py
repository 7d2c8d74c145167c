"""The envelope and its budget."""

from __future__ import annotations

import pytest

from bridge.contract.envelope import (
    MAX_BUDGET_TOKENS,
    Ranked,
    check_budget,
    error_envelope,
    estimate_tokens,
    ranked_lists,
    respond,
)
from bridge.contract.errors import BadInputError, UnknownIdError


def test_small_answers_pass_untouched() -> None:
    env = respond({"items": [1, 2]}, budget_tokens=500, items_key="items", map_built_at="t")
    assert env["ok"] and env["data"] == {"items": [1, 2]}
    assert env["truncated"] is None and env["warnings"] == []
    assert env["mapBuiltAt"] == "t"


def test_long_lists_lose_their_tail_and_say_so() -> None:
    items = [{"path": f"src/file_{i}.py", "line": i} for i in range(500)]
    env = respond({"query": "q", "items": items}, budget_tokens=300, items_key="items")
    kept = env["data"]["items"]
    assert 0 < len(kept) < 500
    assert kept == items[: len(kept)]  # the most useful (first) items stay
    assert estimate_tokens(env) <= 300
    truncated = env["truncated"]
    assert truncated is not None
    assert truncated["dropped"] == 500 - len(kept) and truncated["kept"] == len(kept)
    assert any("dropped" in w for w in env["warnings"])


@pytest.mark.parametrize("total", [500, 9_000])
def test_a_long_list_is_cut_without_building_what_it_drops(total: int) -> None:
    """Items built as the budget asks for them (a map answer's edge facts): the cut
    keeps as many as a full list would, and asks for no more than twice those."""
    items = [{"nodeId": f"pkg/mod_{i}.py#use_{i}", "at": [i, i + 3]} for i in range(total)]
    asked: list[int] = []

    def keep(count: int) -> dict[str, object]:
        asked.append(count)
        return {"neighbors": items[:count]}

    lazy = respond(
        {"neighbors": items[:64]}, budget_tokens=400, ranked=Ranked("neighbors", total, keep)
    )
    full = respond({"neighbors": items}, budget_tokens=400, items_key="neighbors")
    assert lazy == full
    kept = len(full["data"]["neighbors"])
    assert max(asked) <= 2 * kept + 1


def test_several_lists_keep_the_first_whole_before_the_next_and_name_each_cut() -> None:
    answer = [{"path": f"src/use_{i}.py", "line": i} for i in range(30)]
    noise = [{"path": f"docs/note_{i}.py", "line": i, "text": "# a mention"} for i in range(300)]
    data = {"count": 30, "locations": answer, "unconfirmed": noise}
    env = respond(data, budget_tokens=800, ranked=ranked_lists(data, "locations", "unconfirmed"))
    assert env["data"]["locations"] == answer  # the confirmed answer is kept first
    kept = len(env["data"]["unconfirmed"])
    assert kept < 300
    truncated = env["truncated"]
    assert truncated is not None
    assert (truncated["items"], truncated["kept"]) == ("unconfirmed", kept)
    assert truncated["cuts"] == [{"items": "unconfirmed", "kept": kept, "dropped": 300 - kept}]
    tight = respond(data, budget_tokens=200, ranked=ranked_lists(data, "locations", "unconfirmed"))
    assert tight["data"]["unconfirmed"] == []
    assert [cut["items"] for cut in tight["truncated"]["cuts"]] == ["locations", "unconfirmed"]


def test_a_cut_a_tool_made_inside_its_data_is_reported_by_the_envelope() -> None:
    env = respond(
        {"text": "a\nb", "truncated": True},
        budget_tokens=500,
        cuts=[{"items": "symbols", "kept": 2, "dropped": 40}],
    )
    assert env["truncated"] is not None
    assert (env["truncated"]["items"], env["truncated"]["dropped"]) == ("symbols", 40)
    assert any("40 of 42 symbols dropped" in w for w in env["warnings"])


def test_one_huge_string_is_shortened() -> None:
    env = respond({"contents": "x" * 100_000}, budget_tokens=300)
    assert estimate_tokens(env) <= 300
    assert env["data"]["contents"].endswith("…")
    assert env["truncated"] is not None and env["truncated"]["stringsShortened"]


def test_budget_bounds_are_enforced() -> None:
    assert check_budget(2000) == 2000
    with pytest.raises(BadInputError, match="out of range"):
        check_budget(MAX_BUDGET_TOKENS + 1)
    with pytest.raises(BadInputError):
        check_budget(0)


def test_errors_carry_code_message_hint_and_the_nearest_ids() -> None:
    env = error_envelope(UnknownIdError("no node a.py#X", suggestions=["a.py#Y"]))
    assert env == {
        "ok": False,
        "error": {
            "code": "unknown_id",
            "message": "no node a.py#X",
            "hint": "did you mean: a.py#Y",
            "suggestions": ["a.py#Y"],
        },
    }
