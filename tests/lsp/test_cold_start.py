"""The client's own rules, against a scripted server: cold starts, hung and dying requests."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import sys
from pathlib import Path

import pytest

from lsp.catalog import Catalog
from lsp.errors import (
    RequestTimeoutError,
    ServerCrashedError,
    ServerRequestError,
    UnsupportedQueryError,
)
from lsp.settings import LiveSettings
from tests.lsp.conftest import open_live, python_catalog_with

FAKE = Path(__file__).with_name("fake_server.py")
SHAPES = "app/shapes.py"


def _fake(mode: str, *args: str) -> Catalog:
    return python_catalog_with(f"fake-{mode}", (sys.executable, str(FAKE), mode, *args))


def test_empty_answers_of_a_cold_server_are_retried_until_one_is_not(tmp_path: Path) -> None:
    settings = LiveSettings(cold_start_deadline=30.0)
    with open_live("py_app", tmp_path, catalog=_fake("cold", "3"), settings=settings) as live:
        found = live.run(live.pool.definition(SHAPES, 2, 0), timeout=20)
        assert [(loc.path, loc.line) for loc in found] == [(SHAPES, 1)]


def test_a_server_that_only_answers_empty_is_given_up_on_at_the_deadline(tmp_path: Path) -> None:
    settings = LiveSettings(cold_start_deadline=0.5)
    with open_live("py_app", tmp_path, catalog=_fake("empty"), settings=settings) as live:
        assert live.run(live.pool.definition(SHAPES, 2, 0), timeout=20) == []


def test_a_warm_server_is_believed_when_it_answers_empty(tmp_path: Path) -> None:
    # Empty answers after the first success are taken as they are: were they
    # retried, the 60 s deadline would outlast the 20 s bound of the second call.
    settings = LiveSettings(cold_start_deadline=60.0)
    with open_live("py_app", tmp_path, catalog=_fake("once"), settings=settings) as live:
        assert live.run(live.pool.definition(SHAPES, 2, 0), timeout=20) != []
        assert live.run(live.pool.definition(SHAPES, 2, 0), timeout=20) == []


def test_a_server_that_never_says_it_loaded_costs_one_deadline_not_one_per_query(
    tmp_path: Path,
) -> None:
    # The scripted server never logs the line its entry waits for. The first query
    # waits out the 10 s deadline (within its 30 s bound); were the wait repeated
    # per query, each later one would outlast its 5 s bound.
    fake = _fake("cold", "0")
    spec = dataclasses.replace(fake.servers["fake-cold"], ready_log=("^never logged$",))
    catalog = fake.with_overrides({}, {"fake-cold": spec})
    settings = LiveSettings(cold_start_deadline=10.0)
    with open_live("py_app", tmp_path, catalog=catalog, settings=settings) as live:
        for bound in (30, 5, 5, 5):
            found = live.run(live.pool.definition(SHAPES, 2, 0), timeout=bound)
            assert [(loc.path, loc.line) for loc in found] == [(SHAPES, 1)]
            assert live.pool.still_loading(SHAPES)  # and each answer says so


def test_a_request_the_server_says_went_stale_is_sent_again(tmp_path: Path) -> None:
    with open_live("py_app", tmp_path, catalog=_fake("modified", "2")) as live:
        found = live.run(live.pool.definition(SHAPES, 2, 0), timeout=20)
        assert [(loc.path, loc.line) for loc in found] == [(SHAPES, 1)]


def test_a_request_that_keeps_going_stale_fails_with_the_servers_reason(tmp_path: Path) -> None:
    with open_live("py_app", tmp_path, catalog=_fake("modified", "3")) as live:
        with pytest.raises(ServerRequestError, match="content modified"):
            live.run(live.pool.definition(SHAPES, 2, 0), timeout=20)
        found = live.run(live.pool.definition(SHAPES, 2, 0), timeout=20)  # it answers now
        assert [(loc.path, loc.line) for loc in found] == [(SHAPES, 1)]


def test_a_hung_server_is_restarted_after_requests_in_a_row_time_out(tmp_path: Path) -> None:
    settings = LiveSettings(request_timeout=1.0, hang_after_timeouts=3)
    with open_live("py_app", tmp_path, catalog=_fake("hang"), settings=settings) as live:
        with pytest.raises(RequestTimeoutError) as caught:
            live.run(live.pool.definition(SHAPES, 2, 0), timeout=20)
        assert "fake-hang did not answer textDocument/definition within 1 s" in str(caught.value)
        for _ in range(settings.hang_after_timeouts - 2):
            with pytest.raises(RequestTimeoutError):
                live.run(live.pool.definition(SHAPES, 2, 0), timeout=20)
        [slow] = live.pool.status()  # slow answers, too few in a row: the server keeps running
        assert slow.state == "running" and slow.pid is not None
        with pytest.raises(RequestTimeoutError):
            live.run(live.pool.definition(SHAPES, 2, 0), timeout=20)
        [status] = live.pool.status()
        assert (status.state, status.pid) == ("stopped", None)
        with pytest.raises(UnsupportedQueryError, match="textDocument/documentSymbol"):
            live.run(live.pool.document_symbols(SHAPES), timeout=20)
        [status] = live.pool.status()
        assert (status.state, status.restarts) == ("running", 1)


def test_a_request_in_flight_fails_at_once_when_the_server_dies(tmp_path: Path) -> None:
    settings = LiveSettings(request_timeout=60.0)
    with open_live("py_app", tmp_path, catalog=_fake("hang"), settings=settings) as live:

        async def kill_mid_request() -> None:
            query = asyncio.ensure_future(live.pool.definition(SHAPES, 2, 0))
            async with asyncio.timeout(20):  # until the server runs and has the request
                while not live.pool.status() or live.pool.status()[0].pid is None:
                    await asyncio.wait({query}, timeout=0.05)
                await asyncio.wait({query}, timeout=0.2)
            pid = live.pool.status()[0].pid
            assert pid is not None and not query.done()
            os.killpg(pid, signal.SIGKILL)
            await query

        with pytest.raises(ServerCrashedError, match="fake-hang crashed: exit code -9"):
            live.run(kill_mid_request(), timeout=20)
