"""Password checks for players and operators alike (issue 10): one hashing, one login limit.

The limit counts attempts in :class:`~casino_holdem.models.LoginCounter` rows, each bumped by one
atomic ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` in a transaction of its own that commits
*before* the password is hashed. Concurrent attempts therefore see each other's counts: a burst
for one username gets at most :data:`USER_LIMIT` password checks, however many processes serve
it. Two keys are counted:

- a username (per kind, case-folded) from one address: :data:`USER_LIMIT` failures per
  :data:`WINDOW`; keyed by address too, so a stranger cannot lock a player out from elsewhere;
- an address: :data:`ADDRESS_LIMIT` failures per :data:`WINDOW`, refused before any hashing, so
  a flood of random usernames costs the server nothing but a counter bump.

A success gives its attempt back (the username's counter is cleared, the address's decremented),
so only failures use up a limit. Failures are also kept in the audit log (``login_failed``).

A player's current password, asked to confirm a change of password, is a password check like a
login's (:data:`PASSWORD_CHANGE`): it counts against the same limits, so a stolen session cookie
cannot be used to guess the password behind it (its failures are ``password_change_failed``).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import case, delete, literal, update
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..models import LoginCounter, UTCDateTime
from . import audit
from .errors import ServiceError
from .queries import upsert
from .transaction import clock, transactional

T = TypeVar("T")
USER_LIMIT = 5
ADDRESS_LIMIT = 100
WINDOW = dt.timedelta(minutes=5)
#: the longest name either kind of account may have (players.username's length)
MAX_NAME = 64
#: compared against when the name is unknown, so a miss takes as long as a wrong password
_NOBODY = generate_password_hash("nobody")


@dataclass(frozen=True, slots=True)
class Check:
    """What a password check confirms: its name (in refusals, and ``<name>_failed`` in the audit
    log) and the field a refusal names."""

    name: str
    field: str


LOGIN = Check("login", "password")
PASSWORD_CHANGE = Check("password_change", "current_password")


class TooManyAttempts(ServiceError):
    """Too many failed password checks; ``retry_after`` is the number of seconds until the next try."""

    status = 429

    def __init__(self, retry_after: int, check: Check = LOGIN) -> None:
        super().__init__(f"{check.name}: too many failed attempts; try again in {retry_after} s", check.field)
        self.retry_after = retry_after


class WrongPassword(ServiceError):
    """The current password given to confirm a change is wrong."""

    status = 401


def hash_password(password: str) -> str:
    """The stored form of a password (werkzeug's default method, named in the hash)."""
    return generate_password_hash(password)


def matches(stored: str, password: str) -> bool:
    return check_password_hash(stored, password)


def _keys(kind: str, username: str, address: str) -> tuple[str, str]:
    return f"address|{address}", f"{kind}|{username.lower()}|{address}"


def _bump(key: str, moment: dt.datetime) -> tuple[int, dt.datetime]:
    """Count one attempt on ``key`` atomically; a window older than :data:`WINDOW` starts over."""
    stale = LoginCounter.window_start <= moment - WINDOW
    insert = upsert(LoginCounter).values(key=key, window_start=moment, count=1)
    statement = insert.on_conflict_do_update(index_elements=[LoginCounter.key], set_={
        "count": case((stale, 1), else_=LoginCounter.count + 1),
        "window_start": case((stale, literal(moment, UTCDateTime())), else_=LoginCounter.window_start),
    }).returning(LoginCounter.count, LoginCounter.window_start)
    count, start = db.session.execute(statement).one()
    return int(count), start


@transactional
def _reserve(kind: str, username: str, address: str, moment: dt.datetime, check: Check) -> None:
    """Take one attempt from both limits, or raise :class:`TooManyAttempts` (rolling the bumps back)."""
    for key, limit in zip(_keys(kind, username, address), (ADDRESS_LIMIT, USER_LIMIT), strict=True):
        count, start = _bump(key, moment)
        if count > limit:
            raise TooManyAttempts(max(1, math.ceil((start + WINDOW - moment).total_seconds())), check)


@transactional
def _settle(kind: str, username: str, address: str, succeeded: bool, moment: dt.datetime, check: Check) -> None:
    address_key, user_key = _keys(kind, username, address)
    if succeeded:
        db.session.execute(delete(LoginCounter).where(LoginCounter.key == user_key))
        db.session.execute(update(LoginCounter).where(LoginCounter.key == address_key, LoginCounter.count > 0)
                           .values(count=LoginCounter.count - 1))
    else:
        audit.record(audit.SYSTEM, f"{check.name}_failed", now=moment, kind=kind, username=username, address=address)


def attempt(kind: str, username: str, password: str, address: str,
            lookup: Callable[[str], tuple[T | None, str | None]], *, now: dt.datetime | None = None,
            check: Check = LOGIN) -> T | None:
    """The account when ``password`` is right, else None (recorded as a failure).

    ``lookup(username)`` returns the account if it may sign in, and the stored hash of the name
    (None when there is no such name). The hash is checked outside any transaction, after the
    limits took this attempt, so no lock is held while hashing. Raises :class:`TooManyAttempts`
    while a limit holds, without checking the password. ``check`` says what the password confirms
    (a login, or a change of password): the limits are the same, the refusals name its field.
    """
    moment = clock(now)
    if not 1 <= len(username) <= MAX_NAME:
        return None  # no account has such a name; not recorded, so the audit log cannot be flooded
    _reserve(kind, username, address, moment, check)
    account, stored = lookup(username)
    found = account if matches(stored or _NOBODY, password) and stored else None
    _settle(kind, username, address, found is not None, moment, check)
    return found
