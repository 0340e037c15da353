"""The paytable lifecycle: versions kept by SHA-256 in the database, approved by a second manager,
assigned to tables from their next round and never before their ``effective_from``.

A stored version's bytes never change (the SHA-256 is their name), so a round settled under a
version replays on any server from the database; the files on disk are only the fallback for
versions never imported (the standard one a fresh database starts with).
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from sqlalchemy import select

from .. import paytable_files, settings
from ..core.errors import InvalidPaytable
from ..core.paytable import Paytable, parse_paytable
from ..extensions import db
from ..models import GameRound, GameTable, PaytableStatus, PaytableVersion, TableChange
from . import audit, paytable_figures, queries
from .errors import Conflict, Unprocessable
from .table_changes import request_change
from .transaction import clock, transactional

if TYPE_CHECKING:
    from .operators import OperatorView

IN_USE = "in use"
#: an exact return figure of a paytable (from the compliance tools, which services never import)
ExactFigure = Callable[[Paytable], Fraction]


class PaytableRejected(Unprocessable):
    """An uploaded paytable with problems; ``problems`` maps each key to what is wrong with it, so a
    form shows every problem next to its key."""

    def __init__(self, error: InvalidPaytable) -> None:
        self.problems: dict[str, str] = {}
        for line in error.problems:
            key, _, problem = line.partition(": ")
            self.problems.setdefault(key if problem else "content", problem or line)
        super().__init__(f"content: {'; '.join(error.problems)}", "content")


@dataclass(frozen=True, slots=True)
class VersionView:
    """One stored version as the back office lists it; ``status`` is draft, approved, in use or retired."""

    id: int
    paytable_id: str
    version: int
    title: str
    effective_from: dt.date
    sha256: str
    status: str
    submitted_by: str
    approved_by: str | None
    rtp: paytable_figures.FiguresView | None = None      # the exact figures; None while computing

    @property
    def ref(self) -> str:
        return f"{self.paytable_id}@{self.version}"


def _in_use(row: PaytableVersion) -> bool:
    """A table names it now, or a round was played under it."""
    for model in (GameTable, GameRound):
        if db.session.scalars(select(model.id).where(model.paytable_sha256 == row.sha256).limit(1)).first():
            return True
    return False


def _view(row: PaytableVersion) -> VersionView:
    status = IN_USE if row.status == PaytableStatus.APPROVED and _in_use(row) else row.status
    return VersionView(row.id, row.paytable_id, row.version, row.title, row.effective_from, row.sha256, status,
                       row.submitted_by, row.approved_by, paytable_figures.figures_of(row.sha256))


@lru_cache(maxsize=64)
def _parsed(content: bytes, source: str) -> Paytable:
    return parse_paytable(content, source=source)


def _by_sha(sha256: str) -> PaytableVersion | None:
    return db.session.scalars(select(PaytableVersion).where(PaytableVersion.sha256 == sha256)).first()


#: paytables read from the database, by (SHA-256, id, version): the bytes a hash names never change
_STORED: dict[tuple[str, str, int], Paytable] = {}
_STORED_LIMIT = 256


def stored_paytable(paytable_id: str, version: int, sha256: str) -> Paytable:
    """The exact paytable a table or round names: from the bytes kept in the database, else from
    the file on disk (refused if that file's bytes changed since). Read from the database once
    per process (issue 10: every table view names its paytable), since the hash pins the bytes."""
    key = (sha256, paytable_id, version)
    known = _STORED.get(key)
    if known is None:
        row = _by_sha(sha256)
        if row is None:
            return paytable_files.by_version(paytable_id, version, sha256)
        if len(_STORED) >= _STORED_LIMIT:
            _STORED.clear()
        known = _STORED[key] = _parsed(row.content, f"{paytable_id}@{version}")
    return known


def keep(paytable: Paytable, actor: str) -> PaytableVersion:
    """Keep a file-resolved paytable's bytes by hash (joins the caller's transaction); the
    standard versions a table is created on are approved by the library they come from."""
    row = _by_sha(paytable.sha256)
    if row is None:
        content = paytable_files.paytable_path(paytable.ref, settings.paytable_dir()).read_bytes()
        row = PaytableVersion(sha256=paytable.sha256, paytable_id=paytable.id, version=paytable.version,
                              title=paytable.title, effective_from=paytable.effective_from, content=content,
                              status=PaytableStatus.APPROVED.value, submitted_by=actor, submitted_at=clock(None),
                              approved_by=audit.SYSTEM, approved_at=clock(None))
        db.session.add(row)
        db.session.flush()
    return row


@transactional
def submit(content: bytes, by: OperatorView, *, now: dt.datetime | None = None) -> VersionView:
    """Upload a new version as a draft: validated (every problem named by its key), refused if its
    id and version are already taken by other bytes; the same bytes again are the same version."""
    try:
        paytable = parse_paytable(content, source="upload")
    except InvalidPaytable as error:
        raise PaytableRejected(error) from None
    existing = _by_sha(paytable.sha256)
    if existing is not None:
        return _view(existing)
    taken = db.session.scalars(select(PaytableVersion).where(PaytableVersion.paytable_id == paytable.id,
                                                             PaytableVersion.version == paytable.version)).first()
    if taken is not None:
        raise Conflict(f"version: {paytable.ref} exists with other bytes (SHA-256 {taken.sha256}); "
                       "a version never changes, number a new one", "version")
    moment = clock(now)
    row = PaytableVersion(sha256=paytable.sha256, paytable_id=paytable.id, version=paytable.version,
                          title=paytable.title, effective_from=paytable.effective_from, content=content,
                          status=PaytableStatus.DRAFT.value, submitted_by=audit.actor_of(by), submitted_at=moment)
    db.session.add(row)
    db.session.flush()
    audit.operator_action(by, "paytable_submitted", reason=None, now=moment, paytable=paytable.ref,
                          sha256=paytable.sha256, effective_from=paytable.effective_from, before=None,
                          after=PaytableStatus.DRAFT.value)
    return _view(row)


@transactional
def approve(version_id: int, by: OperatorView, *, now: dt.datetime | None = None) -> VersionView:
    """Four-eyes: a manager other than the one who submitted the draft approves it."""
    actor = audit.actor_of(by)
    row = queries.lock(PaytableVersion, version_id)
    if row.status != PaytableStatus.DRAFT:
        raise Conflict(f"status: {row.paytable_id}@{row.version} is {row.status}, not a draft", "status")
    if row.submitted_by == actor:
        raise Conflict(f"approved_by: {actor} submitted this version; a second manager approves it (four-eyes)",
                       "approved_by")
    moment = clock(now)
    row.status, row.approved_by, row.approved_at = PaytableStatus.APPROVED.value, actor, moment
    audit.operator_action(by, "paytable_approved", reason=None, now=moment,
                          paytable=f"{row.paytable_id}@{row.version}", sha256=row.sha256,
                          before=PaytableStatus.DRAFT.value, after=PaytableStatus.APPROVED.value)
    return _view(row)


@transactional
def retire(version_id: int, by: OperatorView, reason: str, *, now: dt.datetime | None = None) -> VersionView:
    """No table may be given this version any more; a table using it now keeps it until reassigned."""
    row = queries.lock(PaytableVersion, version_id)
    if not reason.strip():
        raise Unprocessable("reason: required (every operator action is audited with why)", "reason")
    before, row.status = row.status, PaytableStatus.RETIRED.value
    audit.operator_action(by, "paytable_retired", reason=reason.strip(), now=now,
                          paytable=f"{row.paytable_id}@{row.version}", sha256=row.sha256, before=before,
                          after=row.status)
    return _view(row)


@transactional
def list_versions() -> list[VersionView]:
    """Every stored version, newest id and version first."""
    rows = db.session.scalars(select(PaytableVersion).order_by(PaytableVersion.paytable_id,
                                                               PaytableVersion.version.desc()))
    return [_view(row) for row in rows]


@transactional
def version_of(version_id: int) -> VersionView:
    """One stored version with its exact return figures (the back office's detail page)."""
    return _view(queries.get(PaytableVersion, version_id))


@transactional
def content_of(version_id: int) -> bytes:
    """The exact bytes of a stored version (for download and comparison)."""
    return bytes(queries.get(PaytableVersion, version_id).content)


@transactional
def assign(table_id: int, version_id: int, by: OperatorView, reason: str, *,
           now: dt.datetime | None = None) -> TableChange:
    """Give a table an approved version: it takes effect when the table's next round opens, never
    inside a round, and never before the version's ``effective_from`` (midnight UTC)."""
    row = queries.get(PaytableVersion, version_id)
    table = queries.lock(GameTable, table_id)
    if row.status != PaytableStatus.APPROVED:
        raise Conflict(f"version_id: {row.paytable_id}@{row.version} is {row.status}; only an approved version "
                       "is assigned (four-eyes)", "version_id")
    not_before = dt.datetime.combine(row.effective_from, dt.time(), dt.UTC) if row.effective_from > dt.date.min \
        else None
    return request_change(table, {"paytable_id": row.paytable_id, "paytable_version": row.version,
                                  "paytable_sha256": row.sha256}, by, reason, not_before=not_before, now=now)


def _flat(data: dict[str, object], prefix: str = "") -> dict[str, object]:
    """``{"main": {"ante": 1}}`` → ``{"main.ante": 1}``: the keys a paytable file names."""
    flat: dict[str, object] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flat(value, f"{name}."))
        else:
            flat[name] = value
    return flat


@transactional
def compare(left_id: int, right_id: int, exact_bonus: ExactFigure | None = None) -> dict[str, object]:
    """Two versions side by side: every key with both values and whether it differs, the change
    of every stored exact return figure (``rtp``; a side not computed yet is None), and with
    ``exact_bonus`` the Bonus's exact return (R4) computed now (the compliance tools' calculation,
    handed in by the commands: services never import them)."""
    rows = [queries.get(PaytableVersion, left_id), queries.get(PaytableVersion, right_id)]
    left, right = (_flat(tomllib.loads(bytes(row.content).decode("utf-8"))) for row in rows)
    keys = sorted(set(left) | set(right))
    side_by_side: dict[str, object] = {
        "left": _view(rows[0]), "right": _view(rows[1]),
        "keys": [{"key": key, "left": left.get(key), "right": right.get(key),
                  "differs": left.get(key) != right.get(key)} for key in keys],
        "rtp": paytable_figures.rtp_change(rows[0].sha256, rows[1].sha256)}
    if exact_bonus is not None:
        bonus = [exact_bonus(_parsed(bytes(row.content), row.sha256)) for row in rows]
        side_by_side["bonus_rtp"] = {"left": str(bonus[0]), "right": str(bonus[1]), "change": str(bonus[1] - bonus[0])}
    return side_by_side
