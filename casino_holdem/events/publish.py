"""Publishing after commit: while a transaction flushes, the rows it writes say which tables
changed (a round, a bet, a decision, the table itself) and whether the lobby did (any of those, or
a jackpot pool's meter, R6); after the commit those topics are published once on the app's bus. A
rolled-back transaction publishes nothing, so no stream ever shows a state that was not committed.

A change only players' bets and decisions made (R2.1-R2.5: their own rows, not the round's) is
published under the table's :func:`players_only` topic: the streams may show it a moment later,
together with the table's other bettors who act in the same seconds (issue 10). The dealer's
steps, a round's deadline, the table itself are published under the table's topic, for at once.

A ledger posting that moves a player's wallet (a bet, a payout, a deposit: :func:`.wallet.post`
names the wallets it wrote) publishes the player's :func:`player_topic`: each of their open
streams reads their balance afresh at its next build, the lobby's too, though its table changed
nothing (issue 10).
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from flask import current_app, has_app_context
from sqlalchemy.orm import Session

from ..extensions import after_commit
from ..models import AccountKind, Bet, DecisionRecord, GameRound, GameTable, JackpotPool, LedgerAccount
from .bus import EXTENSION

log = logging.getLogger(__name__)
LOBBY = "lobby"
PENDING = "casino_events_pending"
TABLE_PREFIX = "table:"
PLAYER_PREFIX = "player:"
PLAYERS_ONLY_MARK = "/players"


def table_topic(table_id: int) -> str:
    return f"{TABLE_PREFIX}{table_id}"


def player_topic(player_id: int) -> str:
    """The topic of a player whose wallet moved: their open streams show the new balance."""
    return f"{PLAYER_PREFIX}{player_id}"


def players_named(topics: frozenset[str]) -> set[int]:
    """The players whose wallets these topics say moved."""
    return {int(topic.removeprefix(PLAYER_PREFIX)) for topic in topics if topic.startswith(PLAYER_PREFIX)}


def players_only(topic: str) -> str:
    """The topic under which ``topic``'s table is published when only players' bets and decisions
    changed it (module docstring)."""
    return f"{topic}{PLAYERS_ONLY_MARK}"


def tables_named(topics: frozenset[str]) -> set[int]:
    """The tables these topics name, either way."""
    return {int(topic.removeprefix(TABLE_PREFIX).removesuffix(PLAYERS_ONLY_MARK))
            for topic in topics if topic.startswith(TABLE_PREFIX)}


def beyond_players(topics: frozenset[str]) -> bool:
    """Whether these topics name a table changed by more than its players' bets and decisions (a
    dealer's step, a moved deadline, the table itself): a change that may move a round's clock."""
    return any(topic.startswith(TABLE_PREFIX) and not topic.endswith(PLAYERS_ONLY_MARK) for topic in topics)


def _table_of(row: object) -> int | None:
    if isinstance(row, GameTable):
        return row.id
    if isinstance(row, GameRound):
        return row.table_id
    if isinstance(row, Bet):
        return row.round.table_id
    if isinstance(row, DecisionRecord):
        return row.bet.round.table_id
    return None


def _players_only(session: Session, row: object) -> bool:
    """Whether ``row`` is a player's bet or decision, or a round whose columns did not change (a
    bet added to its list is not a change of the round)."""
    if isinstance(row, Bet | DecisionRecord):
        return True
    return (isinstance(row, GameRound) and row in session.dirty
            and not session.is_modified(row, include_collections=False))


def _collect(session: Session, new: Collection[object], changed: Collection[object]) -> None:
    pending: set[str] = session.info.setdefault(PENDING, set())
    for row in (*new, *changed):
        table_id = _table_of(row)
        if table_id is not None:
            topic = table_topic(table_id)
            pending.update((players_only(topic) if _players_only(session, row) else topic, LOBBY))
        elif isinstance(row, JackpotPool):
            pending.add(LOBBY)
        elif isinstance(row, LedgerAccount) and row.kind == AccountKind.WALLET and row.player_id is not None:
            pending.add(player_topic(row.player_id))


def _publish(topics: set[str]) -> None:
    if not has_app_context():
        return
    bus = current_app.extensions.get(EXTENSION)
    if bus is None:
        return
    try:  # a table published for at once shows its players' changes too
        bus.publish(topics - {players_only(topic) for topic in topics})
    except Exception:  # the commit stands; streams catch up when the bus is back (bus.EVERYTHING)
        log.exception("publishing %s failed", sorted(topics))


def register() -> None:
    """Install the hooks on every ORM session (idempotent); a rolled-back transaction publishes nothing."""
    after_commit(PENDING, _collect, _publish)
