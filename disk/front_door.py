"""A layer's front door that loads each public name on first use (PEP 562).

A layer's `__init__.py` lists its public names in `__all__`, imports them
under `TYPE_CHECKING` (what mypy sees), and hands the same names, grouped by
the module each lives in, to `lazy_getattr`:

    _HOME = {
        "lsp.catalog": ("Catalog", "ServerSpec"),
        "lsp.pool": ("LivePool",),
    }
    __getattr__ = lazy_getattr(__name__, _HOME)

`import lsp` then imports nothing more; `lsp.LivePool` imports `lsp.pool`
the first time it is asked for (Python caches the module after that).
tests/test_layers.py holds each door's three lists to the same names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence


def lazy_getattr(package: str, home: Mapping[str, Sequence[str]]) -> Callable[[str], object]:
    """The module `__getattr__` of `package`, whose public names live in the modules of
    `home` (module -> the names it holds); any other name raises AttributeError."""
    module_of = {name: module for module, names in home.items() for name in names}

    def load(name: str) -> object:
        """A public name, imported from its module on first use."""
        if name not in module_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module_of[name]), name)

    return load
