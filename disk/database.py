"""A PostgreSQL address (DSN) given as a store: telling one, showing it safely, and
connecting to it with one-line errors.

The memories (`memory.pg_store`) and the map's shared rows (`map.store.team_store`)
live in the same database, chosen the same way (`--store`, `CODEANCHOR_STORE`);
neither layer may import the other, so what both need of the address is here.
The driver (psycopg) is imported by `connect` alone.

    DatabaseError   the database cannot be reached or used; message and hint say why
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from disk.coded_error import CodedError

if TYPE_CHECKING:
    import psycopg

STORE_ENV = "CODEANCHOR_STORE"
"""The store when `--store` is not given (a SQLite file or a PostgreSQL DSN)."""
CONNECT_TIMEOUT_S = 10


class DatabaseError(CodedError):
    """A PostgreSQL store cannot be reached or used (never shows the password)."""

    code = "bad_store"


def is_postgres_dsn(spec: str) -> bool:
    """Whether a `--store` value names a PostgreSQL database."""
    return spec.startswith(("postgresql://", "postgres://"))


def redact(dsn: str) -> str:
    """The DSN without its password, for messages."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", dsn)


def connect(dsn: str, what: str, *, timeout_s: int = CONNECT_TIMEOUT_S) -> psycopg.Connection[Any]:
    """An autocommit connection to `dsn`; raises DatabaseError, one line naming `what`
    (e.g. "the memory store") and the cause, with a hint at the fix."""
    import psycopg

    shown = redact(dsn)
    try:
        return psycopg.connect(dsn, connect_timeout=timeout_s, autocommit=True)
    except psycopg.OperationalError as exc:
        raise DatabaseError(
            f"{shown}: cannot connect to {what}: {_why(exc)}", hint=_fix(exc)
        ) from exc
    except psycopg.ProgrammingError as exc:
        raise DatabaseError(f"{shown}: not a usable PostgreSQL address ({exc})") from exc


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (the driver's run to several)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _why(exc: Exception) -> str:
    text = str(exc)
    if "password authentication failed" in text or "no password supplied" in text:
        return "the password was refused"
    if "does not exist" in text and "database" in text:
        return "the database does not exist"
    if "role" in text and "does not exist" in text:
        return "the user (role) does not exist"
    return first_line(exc).split(": ", 1)[-1]


def _fix(exc: Exception) -> str:
    text = str(exc)
    if "password" in text:
        return "check the password (DSN, PGPASSWORD or ~/.pgpass)"
    if "does not exist" in text and "database" in text:
        return "create it (createdb NAME) or fix the database name in the DSN"
    return "check the host, port and that the PostgreSQL server is running"
