"""Extracts across the process pool: pickled as constructor calls, not as state.

A frozen slotted dataclass pickles by default through `dataclasses`' own
`__getstate__`/`__setstate__`, two Python calls per object that walk its
fields each time (a cold sympy build spent more time pickling and
unpickling its ~800k extract objects than extracting them). Here each of
the map's dataclasses pickles as `(cls, field values)`, which the unpickler
turns back into a plain constructor call from C: a fifth of the cost to
load, a third to dump, and equal objects.

Only a worker and the process that started it exchange these bytes.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from operator import attrgetter
from types import MappingProxyType
from typing import Any

from map.model import Assignment, FileExtract, Fingerprint, Import, Range, Reference, Symbol

Reduced = tuple[type, tuple[Any, ...]]


def _by_fields(cls: type) -> Callable[[Any], Reduced]:
    """A reducer that pickles an instance of dataclass `cls` as `cls(*fields)`."""
    names = [f.name for f in fields(cls)]
    if len(names) < 2:  # attrgetter of one name returns the value, not a tuple
        raise TypeError(f"{cls.__name__}: the wire needs two fields or more")
    values = attrgetter(*names)

    def reduce(obj: Any) -> Reduced:
        return cls, values(obj)

    return reduce


def dispatch_table(*extra: type) -> Mapping[type, Callable[[Any], Reduced]]:
    """copyreg's table plus a by-fields reducer for the map's extract dataclasses and
    `extra` (dataclasses too)."""
    table: dict[type, Any] = dict(copyreg.dispatch_table)
    for cls in (Range, Fingerprint, Symbol, Import, Reference, Assignment, FileExtract, *extra):
        if not is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        table[cls] = _by_fields(cls)
    return MappingProxyType(table)


def dumps(obj: object, table: Mapping[type, Callable[[Any], Reduced]]) -> bytes:
    """`obj` pickled with the by-fields reducers of `table`."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = table
    pickler.dump(obj)
    return buffer.getvalue()


loads = pickle.loads
"""The inverse of `dumps` (plain unpickling: the reducers name the constructors)."""
