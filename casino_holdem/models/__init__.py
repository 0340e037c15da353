"""The database model (SQLAlchemy 2.0 typed style), one module per aggregate: accounts (players,
operators, sessions, login counters), the double-entry ledger, jackpot pools, tables, rounds (bets,
decisions, awards, incidents), paytable versions and the append-only audit log; the column types in
:mod:`.columns`. Every name is handed on here, so ``from casino_holdem.models import GameRound``
works wherever a model is needed, and importing this package registers every table on the metadata
(the migrations' environment relies on it).

Money is :class:`~decimal.Decimal` end to end (:class:`~.columns.Money`, R6); the database guards
the ledger as well as the services do (:mod:`.ledger`).
"""

from .accounts import AuthSession, LoginCounter, Operator, Player
from .audit import AuditEntry
from .columns import MONEY_PRECISION, Money, UTCDateTime, utcnow
from .jackpot import JackpotPool, MovementKind, PoolCorrection, PoolMovement
from .ledger import BASE, NON_NEGATIVE_KINDS, AccountKind, LedgerAccount, LedgerTransaction, Posting
from .paytables import PaytableFigures, PaytableStatus, PaytableVersion
from .rounds import AwardRecord, Bet, DecisionRecord, GameRound, IncidentRecord
from .tables import GameTable, TableChange

__all__ = [
    "BASE", "MONEY_PRECISION", "NON_NEGATIVE_KINDS", "AccountKind", "AuditEntry", "AuthSession", "AwardRecord", "Bet",
    "DecisionRecord", "GameRound", "GameTable", "IncidentRecord", "JackpotPool", "LedgerAccount", "LedgerTransaction",
    "LoginCounter", "Money", "MovementKind", "Operator", "PaytableFigures", "PaytableStatus", "PaytableVersion",
    "Player",
    "PoolCorrection", "PoolMovement", "Posting", "TableChange", "UTCDateTime", "utcnow",
]
