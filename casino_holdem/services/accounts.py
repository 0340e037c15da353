"""Players' accounts for the web: registration, login, password change and the demo logins.

Passwords are stored as werkzeug hashes (:func:`wallet.create_player`). Logins go through
:func:`logins.attempt`, the limit shared with the operators' sign-in (issue 10); a password
change ends every session of the player (:func:`sessions.revoke_all`).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from sqlalchemy import bindparam, func, select

from .. import paytable_files
from ..extensions import db
from ..models import AuthSession, GameTable, Player
from . import audit, demo, logins, queries, sessions, wallet
from .errors import Unprocessable
from .logins import TooManyAttempts
from .transaction import clock, reading, transactional

__all__ = ["DEMO_DEPOSIT", "MIN_PASSWORD", "USERNAME", "TooManyAttempts", "change_password", "currencies",
           "demo_logins", "login", "player", "register"]

MIN_PASSWORD = 8
USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
#: demo money for a player who registers while demo tables run: about 10,000 base units (R6)
DEMO_DEPOSIT = Decimal(10000)


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
    player = wallet.create_player(username, password, currency)  # refuses "Demo1" when "demo1" exists
    if _demo_mode():
        deposit = DEMO_DEPOSIT * wallet.currency_spec(currency).multiplier
        wallet.deposit(player.id, deposit, f"demo-register:{player.id}")
    return player


@transactional
def _lookup(username: str) -> tuple[wallet.PlayerView | None, str | None]:
    """The player who may log in as ``username`` (any case; bots may not: the dealer plays them)."""
    row = db.session.scalars(select(Player).where(func.lower(Player.username) == username.lower())).first()
    if row is None:
        return None, None
    return (None if row.is_bot else wallet.player_view(row)), row.password_hash


def login(username: str, password: str, address: str, *, now: dt.datetime | None = None) -> wallet.PlayerView | None:
    """The player when the password is right, None when not (the failure is recorded). Raises
    :class:`TooManyAttempts` while the limit holds, without checking the password."""
    return logins.attempt(sessions.PLAYER, username, password, address, _lookup, now=now)


def change_password(player_id: int, current: str, new: str, address: str, *, now: dt.datetime | None = None) -> None:
    """Set a new password (the current one must be right) and end every session of the player,
    so a stolen cookie dies with the old password (issue 10).

    The current password is checked like a login's, against the same limits per username and
    address and per address (:data:`.logins.PASSWORD_CHANGE`), so a stolen cookie cannot be used
    to guess it: :class:`TooManyAttempts` while a limit holds. The new password is hashed outside
    any transaction, and set only if the password checked is still the stored one."""
    if not isinstance(new, str) or len(new) < MIN_PASSWORD:
        raise Unprocessable(f"password: at least {MIN_PASSWORD} characters", "password")
    own, stored = _own(player_id)
    confirmed = logins.attempt(sessions.PLAYER, own.username, current, address, lambda _name: (own, stored),
                               now=now, check=logins.PASSWORD_CHANGE)
    if confirmed is None:
        raise _wrong_current_password()
    _replace_password(player_id, stored, logins.hash_password(new), now)


def _wrong_current_password() -> logins.WrongPassword:
    return logins.WrongPassword("current_password: wrong password", "current_password")


@transactional
def _own(player_id: int) -> tuple[wallet.PlayerView, str]:
    row = queries.get(Player, player_id)
    return wallet.player_view(row), row.password_hash


@transactional
def _replace_password(player_id: int, checked: str, hashed: str, now: dt.datetime | None) -> None:
    row = queries.lock(Player, player_id)
    if row.password_hash != checked:  # changed meanwhile (another device): the password confirmed is not it
        raise _wrong_current_password()
    row.password_hash = hashed
    sessions.revoke_all(sessions.PLAYER, player_id, now=now)
    audit.record(audit.player_actor(player_id), "password_changed", player_id=player_id, now=now)


@transactional
def player(player_id: int) -> wallet.PlayerView:
    """The player behind a session."""
    return wallet.player_view(queries.get(Player, player_id))


#: a session and the player behind it (:func:`session_player`), built once with its parameter
#: named (issue 10: every request asks it, and building a statement and its cache key per call
#: cost more CPU than its round trip)
SESSION_AND_PLAYER = (
    select(*sessions.LIVENESS, Player.id.label("player_id"), Player.username, Player.currency, Player.is_bot,
           Player.language)
    .outerjoin(Player, (AuthSession.kind == sessions.PLAYER) & (Player.id == AuthSession.principal_id))
    .where(AuthSession.id == bindparam("session_id")))


@reading
def session_player(token: str) -> tuple[sessions.Principal | None, wallet.PlayerView | None]:
    """Whose live session ``token`` is, and the player behind it when it is a player's (a removed
    player is None): one read of both, since every API request asks both (issue 10); a read
    whose one write keeps the session alive (:func:`.sessions.resolve_many`)."""
    stored = sessions.digest(token)
    row = db.session.execute(SESSION_AND_PLAYER, {"session_id": stored}).first()
    principal = sessions.keep_alive([] if row is None else [row], clock(None)).get(stored)
    if principal is None or principal.kind != sessions.PLAYER or row is None or row.player_id is None:
        return principal, None
    return principal, wallet.PlayerView(row.player_id, row.username, row.currency, row.is_bot, row.language)
