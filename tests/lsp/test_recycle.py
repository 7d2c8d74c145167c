"""When a language server has outgrown its memory: its working size, its bound, and
when it is weighed (the server's processes are stood in for by a list of sizes)."""

from __future__ import annotations

from lsp.recycle import WEIGH_EVERY_S, Outgrown, Recycler
from lsp.settings import LiveSettings


class Sizes:
    """What the server's processes hold at each weighing, in turn (MB)."""

    def __init__(self, *sizes: float | None) -> None:
        self.sizes = list(sizes)
        self.weighed = 0

    def __call__(self, pid: int) -> float | None:
        self.weighed += 1
        return self.sizes.pop(0)


def recycler(sizes: Sizes, **settings: float) -> Recycler:
    made = Recycler(LiveSettings(**settings), sizes)  # type: ignore[arg-type]
    made.started(0.0)
    return made


def test_a_server_is_restarted_once_it_grew_past_its_working_size_plus_the_setting() -> None:
    sizes = Sizes(100.0, 120.0, 132.0, 133.0)
    recycling = recycler(sizes, max_server_growth_mb=32, recycle_interval=0.0)
    assert recycling.outgrown(7, answered=True, now=0.0) is None  # its working size
    assert (recycling.working_mb, recycling.bound_mb()) == (100.0, 132.0)
    assert recycling.outgrown(7, answered=True, now=WEIGH_EVERY_S) is None
    assert recycling.outgrown(7, answered=True, now=2 * WEIGH_EVERY_S) is None  # at it
    assert recycling.outgrown(7, answered=True, now=3 * WEIGH_EVERY_S) == Outgrown(133.0, 132.0)
    assert recycling.recycles == 1


def test_a_large_server_may_grow_by_a_quarter_of_its_working_size() -> None:
    sizes = Sizes(2000.0, 2400.0, 2501.0)
    recycling = recycler(sizes, max_server_growth_mb=32, recycle_interval=0.0)
    recycling.outgrown(7, answered=True, now=0.0)
    assert recycling.bound_mb() == 2500.0
    assert recycling.outgrown(7, answered=True, now=WEIGH_EVERY_S) is None
    assert recycling.outgrown(7, answered=True, now=2 * WEIGH_EVERY_S) == Outgrown(2501.0, 2500.0)


def test_a_server_whose_heap_swings_may_grow_by_its_catalog_share() -> None:
    sizes = Sizes(900.0, 1350.0, 1801.0)
    recycling = Recycler(LiveSettings(recycle_interval=0.0), sizes, swing=1.0)  # tsserver's
    recycling.started(0.0)
    recycling.outgrown(7, answered=True, now=0.0)
    assert recycling.bound_mb() == 1800.0
    assert recycling.outgrown(7, answered=True, now=WEIGH_EVERY_S) is None  # a GC peak
    assert recycling.outgrown(7, answered=True, now=2 * WEIGH_EVERY_S) == Outgrown(1801.0, 1800.0)


def test_the_working_size_is_taken_once_the_server_answered_and_anew_after_a_restart() -> None:
    sizes = Sizes(50.0, 100.0, 400.0, 60.0, 120.0)
    recycling = recycler(sizes, max_server_growth_mb=32, recycle_interval=0.0)
    assert recycling.outgrown(7, answered=False, now=0.0) is None  # still loading: 50 MB
    assert recycling.working_mb is None and recycling.held_mb == 50.0
    recycling.outgrown(7, answered=True, now=WEIGH_EVERY_S)
    assert recycling.working_mb == 100.0
    assert recycling.outgrown(7, answered=True, now=2 * WEIGH_EVERY_S) == Outgrown(400.0, 132.0)
    recycling.started(2 * WEIGH_EVERY_S)
    assert (recycling.working_mb, recycling.held_mb) == (None, None)
    recycling.outgrown(8, answered=False, now=3 * WEIGH_EVERY_S)
    recycling.outgrown(8, answered=True, now=4 * WEIGH_EVERY_S)
    assert (recycling.working_mb, recycling.bound_mb()) == (120.0, 152.0)
    assert recycling.recycles == 1


def test_a_server_is_weighed_at_most_every_ten_seconds() -> None:
    sizes = Sizes(100.0, 900.0)
    recycling = recycler(sizes, max_server_growth_mb=32, recycle_interval=0.0)
    recycling.outgrown(7, answered=True, now=0.0)
    assert recycling.outgrown(7, answered=True, now=WEIGH_EVERY_S - 0.1) is None
    assert sizes.weighed == 1
    assert recycling.outgrown(7, answered=True, now=WEIGH_EVERY_S) == Outgrown(900.0, 132.0)


def test_within_the_interval_of_its_start_a_server_loads_and_is_never_restarted() -> None:
    sizes = Sizes(100.0, 140.0, 900.0)
    recycling = recycler(sizes, max_server_growth_mb=32, recycle_interval=60.0)
    recycling.outgrown(7, answered=True, now=0.0)
    assert recycling.outgrown(7, answered=True, now=50.0) is None  # still loading its workspace
    assert (recycling.working_mb, recycling.bound_mb()) == (140.0, 175.0)
    assert recycling.outgrown(7, answered=True, now=60.0) == Outgrown(900.0, 175.0)


def test_the_absolute_cap_holds_before_the_working_size_is_known_and_below_the_growth() -> None:
    sizes = Sizes(300.0, 300.0, 1200.0)
    recycling = recycler(sizes, max_server_mb=250, max_server_growth_mb=32, recycle_interval=0)
    assert recycling.outgrown(7, answered=False, now=0.0) == Outgrown(300.0, 250.0)
    recycling = recycler(sizes, max_server_mb=1000, max_server_growth_mb=0, recycle_interval=0)
    recycling.outgrown(7, answered=True, now=0.0)
    assert recycling.bound_mb() == 1000.0  # no growth bound: the cap alone
    assert recycling.outgrown(7, answered=True, now=WEIGH_EVERY_S) == Outgrown(1200.0, 1000.0)


def test_no_bound_set_weighs_nothing() -> None:
    sizes = Sizes()
    recycling = recycler(sizes, max_server_mb=0, max_server_growth_mb=0, recycle_interval=0)
    assert recycling.outgrown(7, answered=True, now=0.0) is None
    assert sizes.weighed == 0 and recycling.bound_mb() is None
