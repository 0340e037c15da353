"""The append-only audit log: every state change writes one entry in the same transaction.

Details are JSON (amounts as strings). Back-office actions go through :func:`operator_action`.
Nothing hidden goes in before it is public: the Dealer's hole cards and the deck are logged only
when the round is settled or void.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from sqlalchemy import Insert, insert

from ..extensions import db
from ..models import AuditEntry
from ..serialize import jsonable
from .transaction import clock

if TYPE_CHECKING:
    from .operators import OperatorView

DEALER = "dealer"
SYSTEM = "system"
#: one entry, written at once by a plain statement (:func:`record`)
NEW_ENTRY = insert(AuditEntry.__table__)


def player_actor(player_id: int) -> str:
    return f"player:{player_id}"


def operator_actor(name: str) -> str:
    return f"operator:{name}"


def record(actor: str, action: str, *, table_id: int | None = None, round_id: int | None = None,
           player_id: int | None = None, now: dt.datetime | None = None, **detail: Any) -> None:
    """Append one entry (joins the caller's transaction), by one plain statement rather than
    through the session's unit of work: an entry is never read back or changed in the transaction
    that writes it, and every bet and decision writes one (issue 10: the unit of work's
    bookkeeping for it cost more than its statement). The rows it names already have their ids,
    so they are in the database already."""
    db.session.execute(NEW_ENTRY, _values(actor, action, table_id, round_id, player_id, now, detail))


def entry(actor: str, action: str, *, table_id: int | None = None, round_id: int | None = None,
          player_id: int | None = None, now: dt.datetime | None = None, **detail: Any) -> Insert:
    """The entry :func:`record` would append, as a statement for the caller to send with its own
    next write (:func:`.wallet.post`'s ``also``: on PostgreSQL in the same round trip, issue 10).
    Nothing reads an entry back in the transaction that writes it, so it may go in with a later
    statement of that transaction."""
    return NEW_ENTRY.values(_values(actor, action, table_id, round_id, player_id, now, detail))


def _values(actor: str, action: str, table_id: int | None, round_id: int | None, player_id: int | None,
            now: dt.datetime | None, detail: dict[str, Any]) -> dict[str, Any]:
    return {"at": clock(now), "actor": actor, "action": action, "table_id": table_id, "round_id": round_id,
            "player_id": player_id, "detail": jsonable(detail)}


def actor_of(operator: OperatorView | None) -> str:
    """How the audit log and the rows that name an actor (submitted_by, requested_by…) name an
    operator; ``None`` is the system itself (demo data, set-up scripts)."""
    return SYSTEM if operator is None else operator_actor(operator.username)


def operator_action(operator: OperatorView | None, action: str, *, reason: str | None, before: Any = None,
                    after: Any = None, table_id: int | None = None, round_id: int | None = None,
                    player_id: int | None = None, now: dt.datetime | None = None, **detail: Any) -> None:
    """The one record of a back-office action (issue 11): who (the operator's id, name and
    role), when, what (``action`` and the table, round or player it touched), the values
    before and after, and the reason given. Every operator action calls this in its own
    transaction, so the entry exists exactly when the change does; ``None`` is the system acting
    for itself (role ``system``, no operator id)."""
    record(actor_of(operator), action, table_id=table_id, round_id=round_id, player_id=player_id, now=now,
           operator_id=None if operator is None else operator.id,
           role=SYSTEM if operator is None else operator.role.value, before=before, after=after, reason=reason,
           **detail)
