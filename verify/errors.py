"""What verification raises when a symbol cannot be found; the surface turns each
into its own answer (`bridge.contract.translate`).

    VerifyError
    ├── UnknownSymbolError   neither the map nor the live server knows the node ID
    └── SymbolGoneError      the map had it, but no live server finds it anywhere

Failures of the live servers themselves stay `lsp` errors, of the disk `disk` errors.
"""

from __future__ import annotations


class VerifyError(Exception):
    """A symbol could not be verified (see the subclasses)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownSymbolError(VerifyError):
    """No such node ID, in the map or the live outline; `suggestions` are the nearest."""

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


class SymbolGoneError(VerifyError):
    """The map had the symbol; the live server finds it nowhere now. `hint` says
    what to look at instead."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint
