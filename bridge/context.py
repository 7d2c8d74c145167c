"""The one object a tool call needs: root, configuration, the live pool, the map.

Built once at start-up (by the CLI or the MCP server's lifespan) and passed
down; nothing lives at module level. The live pool and the map start lazily,
on the first call that needs them, and `aclose` shuts everything down. The
root, configuration and settings are bridge.workspace's; what only a server
uses (the watcher, the memory check at start) is imported when it starts, so
a one-shot command does not load it. A read-only command's context creates
no `.codeanchor/`: without a map store, the map it needs is built in a
temporary folder.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
import tempfile
from collections.abc import Coroutine
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bridge.config import Config, build_dataclass
from bridge.server.call_progress import build_progress
from bridge.tools.baseline_cache import BaselineCache
from bridge.workspace import ConfiguredWorkspace
from map import CodeMap
from verify import CacheSettings, CheckCache

if TYPE_CHECKING:
    from bridge.contract.envelope import Envelope
    from lsp import LivePool
    from map import BuildProgress, BuildReport, LiveMap

log = logging.getLogger(__name__)


class AppContext(ConfiguredWorkspace):
    """Root, configuration and the lazily started services of one workspace."""

    def __init__(
        self,
        root: Path,
        config: Config | None = None,
        *,
        serving: bool = False,
        read_only: bool = False,
    ) -> None:
        super().__init__(root, config)
        self.serving = serving
        """A long-lived server: once the map is open, watch the disk and rebuild it."""
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        """`read_only` and no map store in the root yet: where the map is built instead
        (removed by `aclose`), so that reading creates nothing in the repository."""
        self._built_for_answer = False
        """The map was built in `_scratch` for this answer: `announce` says so."""
        inside = not Path(self.map_settings.snapshot_dir).is_absolute()  # a folder of the root
        if read_only and inside and not CodeMap.has_store(self.root, self.map_settings):
            self._scratch = tempfile.TemporaryDirectory(prefix="codeanchor-map-")
            self.map_settings = dataclasses.replace(
                self.map_settings, snapshot_dir=self._scratch.name
            )
        if serving and self._notices:
            log.warning("%s", self._notices[0])
        self._live: LivePool | None = None
        self._map: CodeMap | None = None
        self._map_lock = asyncio.Lock()
        self._opening_early = False
        """The map opens as the server starts (see `open_map_early`)."""
        self._loading = False
        """A server's graph loads in the background (see `_opened_map`)."""
        self._watcher: LiveMap | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._stale_answers = 0
        self.cache_settings = build_dataclass(
            CacheSettings, self.config.cache, "[tool.codeanchor.cache]"
        )
        """What the caches of a server keep at most (a one-shot `map build` has none)."""
        self.check_cache = CheckCache(self.cache_settings)
        """What nav answers' completeness check reuses between questions (by content)."""
        self.baselines = BaselineCache()
        """The diagnostics baselines already had, by workspace state (nav_diagnostics)."""

    def announce(self, envelope: Envelope) -> Envelope:
        """The workspace's notices first (see ConfiguredWorkspace); last, when the map
        was built in a temporary folder for this answer, that it was."""
        envelope = super().announce(envelope)
        if self._built_for_answer:
            self._built_for_answer = False
            envelope["warnings"].append(
                "no map built yet: this answer comes from a map built for it alone "
                "(`codeanchor map build` keeps one, and later answers start faster)"
            )
        return envelope

    def note_staleness(self, stale: bool) -> bool:
        """Count stale map answers in a row; True once they reach `stale_hint_after`
        (time to suggest map_rebuild). A fresh answer resets the count."""
        self._stale_answers = self._stale_answers + 1 if stale else 0
        return self._stale_answers >= self.config.bridge.stale_hint_after

    @property
    def live(self) -> LivePool:
        """The pool of language servers (servers themselves start on first use)."""
        if self._live is None:
            from lsp import LivePool  # the LSP client: only for commands that ask a server

            self._live = LivePool(self.root, self.catalog, self.live_settings)
        return self._live

    @property
    def open_map(self) -> CodeMap | None:
        """The map when a call has opened it already, else None (nothing is opened)."""
        return self._map

    async def code_map(self, *, graph: bool = False) -> CodeMap:
        """The cached map, loaded from its snapshot (or built) on first use.

        Waits while a rebuild runs, so the caller reads a whole graph; a caller
        that reads the map without awaiting in between is safe from rebuilds,
        which start only from the event loop. With `graph`, also waits (in a
        worker thread, so other calls go on) until the graph is loaded: ranking,
        paths and walks need it (not the link, which loads after it), and
        loading it on the event loop would stall every other call for as long as
        the load takes.
        """
        code_map = await self._opened_map()
        if graph and not code_map.graph_loaded:
            load = partial(code_map.load_graph, build_progress(), link=False)
            await asyncio.to_thread(load)
            code_map = await self._opened_map()
        return code_map

    def open_map_early(self) -> None:
        """Start opening the map now, in the background, when the root has a map store
        (a server, as it starts): it is checked against the disk, edits made while no
        server ran are linked, and the disk is watched from then on, so the first call
        waits only for what is left of that. Without a store the first call that needs
        the map builds it (a server may never be asked about the map). Its graph loads
        from `load_graph_early` on, or the first call's, not while the server starts."""
        if CodeMap.has_store(self.root, self.map_settings):
            self._opening_early = True
            self._spawn(self._open_early(load=False))

    def load_graph_early(self) -> None:
        """Start loading the graph of a map opened early, in the background (a server,
        once it serves: the load would slow its start)."""
        if self._opening_early:
            self._spawn(self._open_early(load=True))

    async def _open_early(self, *, load: bool) -> None:
        try:
            await self._opened_map(load=load)
        except Exception as exc:  # the first call that needs the map opens it again
            log.warning("opening the map at start failed: %s", exc)

    async def _opened_map(self, *, load: bool = True) -> CodeMap:
        """The map, opened on first use (see `code_map`).

        A one-shot command reads the store as built and reports what changed since (see
        bridge.tools.mapview). A server watches the disk, then checks every file against
        it (so that no edit falls between the two), and loads the graph in the
        background (`load`: from now on)."""
        async with self._map_lock:
            if self._map is None:
                self._built_for_answer = self._scratch is not None
                progress = build_progress()
                code_map = await asyncio.to_thread(self._open_map, progress)
                if self.serving:
                    if self.config.bridge.watch:
                        await self._watch(code_map)
                    await asyncio.to_thread(self._refresh, code_map, progress)
                self._map = code_map
            if self.serving and load and not self._loading:
                self._loading = True
                self._spawn(self._load_graph(self._map))
            return self._map

    def _open_map(self, progress: BuildProgress | None) -> CodeMap:
        """The map as its store holds it, else built; with the team store when it is
        to be built or kept up to date (a server), which a one-shot reader of a store
        never is (see `_opened_map`)."""
        building = self.serving or not CodeMap.has_store(self.root, self.map_settings)
        team = self.team.open(strict=False) if building else None
        ahead = self.serving  # a server loads the graph soon: see map.store.graph_feed
        return CodeMap.open(
            self.root, self.map_settings, progress, refresh=False, read_graph_ahead=ahead, team=team
        )

    @staticmethod
    def _refresh(code_map: CodeMap, progress: BuildProgress | None) -> None:
        """Bring a server's map up to date with the disk, edits made while no server ran
        linked against the store (the graph loads later), and index its names, which
        its first search would otherwise wait for."""
        code_map.refresh(progress, link_later=True)
        code_map.prepare_search()

    async def _load_graph(self, code_map: CodeMap) -> None:
        """Load the graph in a worker thread while the store answers lookups (ranking,
        paths and impact wait for it); then save what it linked of the files changed
        while no server ran."""
        try:
            unlinked = code_map.unlinked_files()
            await asyncio.to_thread(code_map.load_graph)
            if unlinked:
                async with self._map_lock:
                    await asyncio.to_thread(code_map.save)
        except Exception as exc:  # the next query that needs the graph builds it
            log.warning("loading the map's graph failed: %s", exc)

    async def rebuild_map(self) -> BuildReport:
        """Bring the map up to date with the disk (incremental) and save it."""
        code_map = await self.code_map()
        progress = build_progress()
        await asyncio.to_thread(code_map.load_graph, progress)  # the store answers meanwhile
        async with self._map_lock:
            report = await asyncio.to_thread(code_map.rebuild, progress)
            await asyncio.to_thread(partial(code_map.save, progress=progress))
        return report

    async def _watch(self, code_map: CodeMap) -> None:
        """Watch the disk: an edit flags its file stale at once, and a debounced
        rebuild (under the map lock, so readers never see half a graph) clears it."""
        from map import LiveMap  # watchfiles: a server's only

        self._watcher = LiveMap(code_map, lock=self._map_lock)
        await self._watcher.start()

    def start_memory_check(self) -> None:
        """Check the stored memories in the background and log how many went stale."""
        from memory import store_exists, store_location  # a server's, at start

        if not store_exists(store_location(self.root)):
            return
        self._spawn(self._check_memories())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` in the background (cancelled by `aclose`)."""
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _check_memories(self) -> None:
        from memory import MemoryService

        def check() -> list[str]:
            with MemoryService(self.root, settings=self.memory_settings) as service:
                return [result.status for result in service.check(())]

        try:
            statuses = await asyncio.to_thread(check)
        except Exception as exc:  # a broken store must not stop the server
            log.warning("memory check at start failed: %s", exc)
            return
        stale = statuses.count("stale")
        log.log(
            logging.WARNING if stale else logging.INFO,
            "memory check: %d memories, %d stale (memory_check lists them)",
            len(statuses),
            stale,
        )

    def cache_counts(self) -> dict[str, int]:
        """How much the long-lived caches hold now, for `map_status` (each is bounded:
        `[tool.codeanchor.cache]`, `max_open_documents`), and the objects bulk map
        steps froze out of the collector's reach (they stay while they live)."""
        check = self.check_cache.counts()
        return {
            "checkNames": check["names"],
            "checkRoles": check["roles"],
            "checkTrees": check["trees"],
            "checkOutlines": check["outlines"],
            "checkListings": check["listings"],
            "clockedFiles": check["clockedFiles"],
            "openDocuments": 0 if self._live is None else self._live.open_document_count(),
            "frozenObjects": gc.get_freeze_count(),
        }

    def language_servers(self) -> list[dict[str, Any]]:
        """The language servers started so far, their restarts and memory, for
        `map_status` (a server past its bound is restarted: `max_server_growth_mb`)."""
        return [
            {
                "name": s.name,
                "state": s.state,
                "restarts": s.restarts,
                "recycles": s.recycles,
                "heldMb": None if s.held_mb is None else round(s.held_mb, 1),
                "boundMb": None if s.bound_mb is None else round(s.bound_mb, 1),
            }
            for s in ([] if self._live is None else self._live.status())
        ]

    def watcher_state(self) -> dict[str, Any]:
        """The watcher's state for `map_status` (`stopped` when nothing watches)."""
        if self._watcher is None:
            return {"status": "stopped"}
        return dataclasses.asdict(self._watcher.state())

    async def aclose(self) -> None:
        """Stop background work, the watcher and the language servers (no orphans)."""
        for task in list(self._background):
            task.cancel()
        if self._watcher is not None:
            await self._watcher.stop()
            self._watcher = None
        if self._live is not None:
            await self._live.aclose()
            self._live = None
        self.team.close()
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None
