"""Rows inserted by one plain statement and kept in the session as if read back (issue 10).

A player's bet and decision each add one row, and the session's unit of work spent more of the
request's CPU flushing that row (sorting what depends on what, its bookkeeping before and after)
than the statement itself cost. Here the row goes in by ``INSERT … RETURNING id`` and the object
is made persistent with every column it was given: nothing is left to write, and nothing is read
again. The caller links it to the rows it belongs to (``set_committed_value``). The rows are told to
the event publisher and the metrics (:func:`~casino_holdem.extensions.wrote`), which see a flush's
rows themselves.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import Insert, insert
from sqlalchemy.orm import make_transient_to_detached

from ..extensions import db, wrote

Row = TypeVar("Row")


@functools.cache
def _statement(model: Any) -> tuple[Insert, frozenset[str]]:
    """``INSERT … RETURNING id`` for ``model``'s table (the ids in the order of the rows given),
    and the columns each row must give: all but the id."""
    table = model.__table__
    return (insert(table).returning(table.c.id, sort_by_parameter_order=True),
            frozenset(column.name for column in table.columns) - {"id"})


def insert_rows(model: type[Row], rows: Sequence[Mapping[str, Any]]) -> list[Row]:
    """Insert ``rows`` of ``model`` (each with every column but ``id``, so no attribute is left
    to load) by one statement; the persistent objects, in the same order."""
    if not rows:
        return []
    mapped: Any = model  # a mapped class: its table, and a constructor taking its columns
    statement, columns = _statement(mapped)
    for values in rows:
        if values.keys() != columns:
            raise ValueError(f"{mapped.__name__}: every column but id is needed, not {sorted(values)}")
    # one row is one plain execution; several go in together (SQLAlchemy's "insertmanyvalues")
    ids = db.session.execute(statement, rows[0] if len(rows) == 1 else list(rows)).scalars().all()
    loaded: list[Row] = []
    for values, row_id in zip(rows, ids, strict=True):
        row = mapped(id=row_id, **values)
        make_transient_to_detached(row)  # persistent once added, with nothing left to write
        db.session.add(row)
        loaded.append(row)
    wrote(db.session(), loaded)  # published and counted as a flush's rows are
    return loaded
