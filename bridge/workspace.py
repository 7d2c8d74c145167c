"""One workspace as configured: its root, its configuration (trusted or not) and the
settings built from it, and what the process says once about them.

What a command that starts no service needs (`map build` opens the map itself,
without an event loop); `bridge.context.AppContext` adds the lazily started
services on top. Kept free of asyncio, the memory store and the answer models,
so a fresh `map build` process loads none of them.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from bridge.config import Config, build_dataclass, catalog_of, memory_settings
from bridge.contract.envelope import Envelope, check_budget
from bridge.team import TeamChoice
from bridge.trust import given, load_trusted
from lsp import LiveSettings
from map import MapSettings

if TYPE_CHECKING:
    from memory import CheckSettings


class ConfiguredWorkspace:
    """Root, configuration, trust and settings of one workspace."""

    def __init__(
        self, root: Path, config: Config | None = None, *, store: str | None = None
    ) -> None:
        self.root = root.resolve()
        if config is None:
            self.config, self.trust = load_trusted(self.root)
        else:
            self.config, self.trust = config, given(self.root, config)
        notice = self.trust.notice()
        self._notices = [] if notice is None else [notice]
        """Said once, in the first answer (see `announce`)."""
        self.catalog = catalog_of(self.config)
        self.live_settings = build_dataclass(
            LiveSettings, self.config.live, "[tool.codeanchor.live]"
        )
        self.map_settings = build_dataclass(MapSettings, self.config.map, "[tool.codeanchor.map]")
        self.team = TeamChoice(self.map_settings.team_store, store)
        """The team store of map rows (`store`: `--store`, else $CODEANCHOR_STORE)."""

    @cached_property
    def memory_settings(self) -> CheckSettings:
        """How memory checks weigh what changed: read when first asked, so `map build`
        loads nothing of memory/ (an invalid key is an error then)."""
        return memory_settings(self.config)

    def announce(self, envelope: Envelope) -> Envelope:
        """Put what this process says once (an untrusted configuration) at the head of
        the warnings of `envelope`, the first answer that goes out."""
        envelope["warnings"][:0] = self.take_notices()
        return envelope

    def take_notices(self) -> list[str]:
        """What this process says once (an untrusted configuration), unless already said."""
        notices, self._notices = self._notices, []
        return notices

    def budget(self, requested: int | None) -> int:
        """The token budget of one answer: the request's, else the configured default."""
        return check_budget(self.config.bridge.budget_tokens if requested is None else requested)
