"""Issue 10: a row inserted by one plain statement (:mod:`casino_holdem.services.inserted`) is in
the session as if it had been read back: every column loaded, nothing left to write. A row given
without one of its columns is refused before anything is sent: that column would be read again."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from casino_holdem.extensions import db
from casino_holdem.models import Bet, DecisionRecord
from casino_holdem.services import rounds
from casino_holdem.services.inserted import insert_rows
from support.casino import T0

DECISION = {"street": "preflop", "action": "flop", "automatic": None, "request_id": "d", "decided_at": T0}


def test_issue10_an_inserted_row_is_as_if_read_and_goes_in_with_the_transaction(casino) -> None:
    table, player = casino.table(), casino.player()
    casino.open(table)
    rounds.place_bets(player, table, "10", request_id="b", now=T0)
    bet_id = db.session.scalars(select(Bet.id)).one()
    (row,) = insert_rows(DecisionRecord, [{"bet_id": bet_id, **DECISION}])
    assert row in db.session and not db.session.new and not db.session.dirty
    assert not db.inspect(row).expired_attributes and not db.inspect(row).unloaded - {"bet"}
    assert (row.bet_id, row.street, row.decided_at) == (bet_id, "preflop", T0)
    db.session.rollback()
    assert db.session.scalars(select(DecisionRecord)).all() == []


def test_issue10_a_row_without_every_column_is_refused_before_any_statement(casino) -> None:
    with pytest.raises(ValueError, match="every column but id"):
        insert_rows(DecisionRecord, [{"bet_id": 1, **{k: v for k, v in DECISION.items() if k != "request_id"}}])
