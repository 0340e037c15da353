"""Server-side, revocable sessions for players and operators (issues 10 and 11).

The browser's cookie carries a random token and nothing else that identifies anyone; the
database keeps only the token's SHA-256 (:class:`~casino_holdem.models.AuthSession`), so a
leaked database cannot be replayed as cookies and revoking a row ends every copy of the cookie
at once (logging out, a password change, an operator disabled).

A session ends after a spell of inactivity: :data:`PLAYER_IDLE` for players (the lifetime the
signed cookie always had), ``CASINO_OPERATOR_IDLE_SECONDS`` for operators. The last-seen time is
written at most every :data:`TOUCH_EVERY`, so an ordinary request costs one indexed read.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, Row, delete, select, update

from .. import settings
from ..extensions import db
from ..models import AuthSession
from .transaction import clock, reading, transactional

PLAYER = "player"
OPERATOR = "operator"
KINDS = (PLAYER, OPERATOR)
PLAYER_IDLE = dt.timedelta(hours=12)
TOUCH_EVERY = dt.timedelta(seconds=30)


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a session belongs to: a player or an operator, by id."""

    kind: str
    id: int


def idle_limit(kind: str) -> dt.timedelta:
    """How long a session of ``kind`` lives without a request."""
    if kind == OPERATOR:
        return dt.timedelta(seconds=settings.value("CASINO_OPERATOR_IDLE_SECONDS"))
    return PLAYER_IDLE


def digest(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


@transactional
def start(kind: str, principal_id: int, *, now: dt.datetime | None = None) -> str:
    """A new session's token (to put in the cookie); this principal's expired sessions are pruned."""
    if kind not in KINDS:
        raise ValueError(f"session kind {kind!r}")
    moment = clock(now)
    db.session.execute(delete(AuthSession).where(AuthSession.kind == kind, AuthSession.principal_id == principal_id,
                                                 AuthSession.expires_at <= moment))
    token = secrets.token_urlsafe(32)
    db.session.add(AuthSession(id=digest(token), kind=kind, principal_id=principal_id, created_at=moment,
                               last_seen_at=moment, expires_at=moment + idle_limit(kind)))
    return token


@reading
def resolve(token: str, *, now: dt.datetime | None = None) -> Principal | None:
    """The principal of a live session, or None (unknown, revoked or expired); keeps it alive."""
    return resolve_many([token], now=now).get(token)


#: what deciding whether a session is live reads of it
LIVENESS = (AuthSession.id, AuthSession.kind, AuthSession.principal_id, AuthSession.revoked_at,
            AuthSession.expires_at, AuthSession.last_seen_at)


@reading
def resolve_many(tokens: Iterable[str], *, now: dt.datetime | None = None) -> dict[str, Principal]:
    """:func:`resolve` of many tokens in one read (issue 10: streams opened together are admitted
    together); a token missing from the result is no live session. Served as a read (every
    request asks it, issue 10): its one write, :func:`keep_alive`'s, is a statement that needs
    nothing else in its transaction."""
    digests = {digest(token): token for token in tokens}
    live = keep_alive(db.session.execute(select(*LIVENESS).where(AuthSession.id.in_(digests))), clock(now))
    return {digests[row_id]: principal for row_id, principal in live.items()}


def keep_alive(rows: Iterable[Row[*tuple[Any, ...]]], moment: dt.datetime) -> dict[str, Principal]:
    """The live sessions among ``rows`` (read with :data:`LIVENESS` first), by stored id; those
    last seen :data:`TOUCH_EVERY` ago or more are kept alive by one statement per kind. Plain
    rows, not loaded objects: every request of every player asks this (issue 10)."""
    live, stale = {}, defaultdict(list)
    for row in rows:
        if row.revoked_at is not None or row.expires_at <= moment:
            continue
        if moment - row.last_seen_at >= TOUCH_EVERY:
            stale[row.kind].append(row.id)
        live[row.id] = Principal(row.kind, row.principal_id)
    for kind, ids in stale.items():
        db.session.execute(update(AuthSession).where(AuthSession.id.in_(ids))
                           .values(last_seen_at=moment, expires_at=moment + idle_limit(kind)))
    return live


@transactional
def revoke(token: str, *, now: dt.datetime | None = None) -> None:
    """End one session (logging out): every copy of its cookie stops working."""
    db.session.execute(update(AuthSession).where(AuthSession.id == digest(token), AuthSession.revoked_at.is_(None))
                       .values(revoked_at=clock(now)))


@transactional
def revoke_all(kind: str, principal_id: int, *, now: dt.datetime | None = None) -> int:
    """End every session of one player or operator (a password change, a disabled operator)."""
    result = db.session.execute(update(AuthSession).where(
        AuthSession.kind == kind, AuthSession.principal_id == principal_id, AuthSession.revoked_at.is_(None))
        .values(revoked_at=clock(now)))
    return int(cast(CursorResult[Any], result).rowcount)  # Session.execute types a Result; an UPDATE's has a cursor
