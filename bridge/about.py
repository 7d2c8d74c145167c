"""What codeanchor says about itself: its version, from the installed package's metadata."""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "codeanchor"


def package_version() -> str:
    """The installed codeanchor's version (`0+unknown` when run from a source tree that
    was never installed, where no metadata exists)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"
