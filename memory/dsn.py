"""A PostgreSQL address (DSN) given as a store: telling one, and showing it safely.

Both the choice of a store (`memory.stores`) and the PostgreSQL store itself
(`memory.pg_store`) need these; neither imports the other for them.
"""

from __future__ import annotations

import re


def is_postgres_dsn(spec: str) -> bool:
    """Whether a `--store` value names a PostgreSQL database."""
    return spec.startswith(("postgresql://", "postgres://"))


def redact(dsn: str) -> str:
    """The DSN without its password, for messages."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", dsn)
