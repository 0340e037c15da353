"""Operator accounts (issue 11): the back office's users, separate from players.

Duties are separated by role, one per account:

- ``pit`` — opens and closes tables, voids rounds (R9), records live incidents;
- ``manager`` — paytables, table settings, jackpot pools;
- ``auditor`` — reads only: reports, the audit log, game recall;
- ``dealer`` — deals the cards of live tables, nothing else.

Operators sign in through the same hashing and login limit as players (:mod:`.logins`); a
password change or disabling an account ends all of its sessions. Every change here is audited
(through :func:`.audit.operator_action`, as the system: accounts are managed from the server's
command line, where no operator is signed in).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import func, select

from ..extensions import db
from ..models import Operator
from . import audit, logins, sessions
from .errors import Conflict, NotFound, Unprocessable, one_of
from .transaction import transactional

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
MIN_PASSWORD = 12


class Role(StrEnum):
    PIT = "pit"
    MANAGER = "manager"
    AUDITOR = "auditor"
    DEALER = "dealer"


@dataclass(frozen=True, slots=True)
class OperatorView:
    id: int
    username: str
    role: Role
    active: bool


def _view(row: Operator) -> OperatorView:
    return OperatorView(row.id, row.username, Role(row.role), row.active)


def _row(username: str) -> Operator | None:
    return db.session.scalars(select(Operator).where(func.lower(Operator.username) == username.lower())).first()


def _existing(username: str) -> Operator:
    row = _row(username)
    if row is None:
        raise NotFound(f"username: no operator {username!r}", "username")
    return row


def _checked_password(password: str, strict: bool) -> str:
    if not isinstance(password, str) or not password or (strict and len(password) < MIN_PASSWORD):
        raise Unprocessable(f"password: at least {MIN_PASSWORD} characters", "password")
    return logins.hash_password(password)


@transactional
def create(username: str, password: str, role: str, *, strict: bool = True) -> OperatorView:
    """A new active operator. ``strict=False`` lets the demo data use its short password."""
    if not isinstance(username, str) or not USERNAME.match(username):
        raise Unprocessable("username: 3 to 32 letters, digits, '.', '_' or '-'", "username")
    chosen = one_of(Role, role, "role")
    if _row(username) is not None:
        raise Conflict(f"username: {username!r} is taken", "username")
    row = Operator(username=username, password_hash=_checked_password(password, strict), role=chosen.value,
                   active=True)
    db.session.add(row)
    db.session.flush()
    audit.operator_action(None, "operator_created", reason=None, before=None,
                          after={"operator_id": row.id, "username": username, "role": chosen.value})
    return _view(row)


@transactional
def find(username: str) -> OperatorView | None:
    row = _row(username)
    return None if row is None else _view(row)


@transactional
def list_operators() -> list[OperatorView]:
    return [_view(row) for row in db.session.scalars(select(Operator).order_by(Operator.id))]


@transactional
def disable(username: str) -> OperatorView:
    """The operator can no longer sign in, and their open sessions end now."""
    row = _existing(username)
    before, row.active = row.active, False
    sessions.revoke_all(sessions.OPERATOR, row.id)
    audit.operator_action(None, "operator_disabled", reason=None, before={"active": before}, after={"active": False},
                          account_id=row.id, username=row.username)
    return _view(row)


@transactional
def set_password(username: str, password: str) -> OperatorView:
    """A new password; every session signed in with the old one ends (issue 10)."""
    row = _existing(username)
    row.password_hash = _checked_password(password, strict=True)
    sessions.revoke_all(sessions.OPERATOR, row.id)
    audit.operator_action(None, "operator_password_set", reason=None, account_id=row.id, username=row.username)
    return _view(row)


@transactional
def _lookup(username: str) -> tuple[OperatorView | None, str | None]:
    row = _row(username)
    if row is None:
        return None, None
    return (_view(row) if row.active else None), row.password_hash


def login(username: str, password: str, address: str, *, now: dt.datetime | None = None) -> OperatorView | None:
    """The operator when the password is right and the account active, else None (recorded).
    Raises :class:`logins.TooManyAttempts` while the limit holds."""
    return logins.attempt(sessions.OPERATOR, username, password, address, _lookup, now=now)


@transactional
def signed_in(operator_id: int) -> OperatorView | None:
    """The operator behind a session, or None once disabled or removed."""
    row = db.session.get(Operator, operator_id)
    return None if row is None or not row.active else _view(row)
