"""Players' accounts for the web: registration, login with a rate limit, and the demo logins.

Passwords are stored as werkzeug hashes (:func:`wallet.create_player`). Failed logins are kept
in the append-only audit log (action ``login_failed`` with the username and the client address),
so the limit holds across every process serving the app: after :data:`MAX_FAILURES` failures for
one username from one address within :data:`FAILURE_WINDOW`, further attempts are refused with
:class:`TooManyAttempts` until the oldest failure leaves the window.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal

from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from .. import paytable_files
from ..extensions import db
from ..models import AuditEntry, GameTable, Player
from . import audit, demo, queries, wallet
from .errors import ServiceError, Unprocessable
from .transaction import clock, transactional

MAX_FAILURES = 5
FAILURE_WINDOW = dt.timedelta(minutes=5)
MIN_PASSWORD = 8
USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
#: demo money for a player who registers while demo tables run: about 10,000 base units (R6)
DEMO_DEPOSIT = Decimal(10000)
#: compared against when the username is unknown, so a miss takes as long as a wrong password
_NO_SUCH_PLAYER = generate_password_hash("no such player")


class TooManyAttempts(ServiceError):
    """Too many failed logins; ``retry_after`` is the number of seconds until the next try."""

    status = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"login: too many failed attempts; try again in {retry_after} s", "password")
        self.retry_after = retry_after


def _demo_mode() -> bool:
    return db.session.scalars(select(GameTable.id).where(GameTable.is_demo.is_(True)).limit(1)).first() is not None


def currencies() -> list[str]:
    """R6: the account currencies a player may choose (the standard paytable's)."""
    return list(paytable_files.resolve().currencies)


@transactional
def demo_logins() -> list[wallet.PlayerView]:
    """The demo players a visitor may log in as (``demo.PASSWORD``), when demo data exists."""
    if not _demo_mode():
        return []
    names = [username for username, _, _ in demo.PLAYERS]
    rows = db.session.scalars(select(Player).where(Player.username.in_(names)).order_by(Player.id)).all()
    return [wallet.player_view(row) for row in rows]


@transactional
def register(username: str, password: str, currency: str) -> wallet.PlayerView:
    """A new player with a wallet in ``currency`` (R6: one of the paytable's currencies). While
    demo tables run, the wallet gets demo money so the newcomer can play at once."""
    if not isinstance(username, str) or not USERNAME.match(username):
        raise Unprocessable("username: 3 to 32 letters, digits, '.', '_' or '-'", "username")
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise Unprocessable(f"password: at least {MIN_PASSWORD} characters", "password")
    if not isinstance(currency, str):
        raise Unprocessable("currency: one of the paytable's currencies", "currency")
    player = wallet.create_player(username, password, currency)
    if _demo_mode():
        deposit = DEMO_DEPOSIT * wallet.currency_spec(currency).multiplier
        wallet.deposit(player.id, deposit, f"demo-register:{player.id}")
    return player


def _recent_failures(username: str, address: str, since: dt.datetime) -> list[dt.datetime]:
    """This username's failures from this address since ``since`` (filtered in SQL: a flood of
    other failures does not slow a login down)."""
    return list(db.session.scalars(
        select(AuditEntry.at).where(AuditEntry.action == "login_failed", AuditEntry.at >= since,
                                    AuditEntry.detail["username"].as_string() == username,
                                    AuditEntry.detail["address"].as_string() == address)
        .order_by(AuditEntry.at)))


@transactional
def login(username: str, password: str, address: str, *, now: dt.datetime | None = None) -> wallet.PlayerView | None:
    """The player when the password is right, None when not (the failure is recorded). Bots
    cannot log in: the dealer plays them. Raises :class:`TooManyAttempts` while the limit holds,
    without checking the password."""
    moment = clock(now)
    if not 1 <= len(username) <= wallet.MAX_USERNAME:
        return None  # no player has such a name; not recorded, so the audit log cannot be flooded
    failures = _recent_failures(username, address, moment - FAILURE_WINDOW)
    if len(failures) >= MAX_FAILURES:
        oldest = failures[-MAX_FAILURES]
        raise TooManyAttempts(max(1, math.ceil((oldest + FAILURE_WINDOW - moment).total_seconds())))
    player = db.session.scalars(select(Player).where(Player.username == username)).first()
    matches = check_password_hash(player.password_hash if player else _NO_SUCH_PLAYER, password)
    if player is None or not matches or player.is_bot:
        audit.record(audit.SYSTEM, "login_failed", now=moment, username=username, address=address)
        return None
    return wallet.player_view(player)


@transactional
def player(player_id: int) -> wallet.PlayerView:
    """The player behind a session."""
    return wallet.player_view(queries.get(Player, player_id))
