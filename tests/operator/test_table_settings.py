"""Table settings changed by an operator take effect from the table's next round, are validated
against the table's other settings, and are audited with the values before and after."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import select

from casino_holdem.models import AuditEntry, GameTable
from casino_holdem.services import rounds, tables
from casino_holdem.services.errors import NotFound, Unprocessable
from support.casino import SECOND, T0, staff

ANN = staff("ann", "manager")


@pytest.mark.parametrize(("settings", "field"), [
    ({"betting_seconds": 0}, "betting_seconds"),           # R8
    ({"decision_seconds": 0}, "decision_seconds"),         # R8
    ({"ante_min": Decimal(501)}, "ante_min"),              # R2.1: above the table's Ante maximum
    ({"bonus_max": Decimal("0.000001")}, "bonus_max"),     # R6: five places at most
    ({"max_bettors": 0}, "max_bettors"),                   # R1
    ({"colour": "green"}, "colour"),
])
def test_bad_settings_are_refused_naming_the_field(casino, settings, field) -> None:
    table = casino.table()
    with pytest.raises(Unprocessable) as refused:
        tables.edit_table(table, ANN, "try", **settings)
    assert refused.value.field == field and tables.pending_changes(table) == []


def test_a_missing_pool_is_refused(casino) -> None:
    with pytest.raises(NotFound):
        tables.edit_table(casino.table(), ANN, "relink", pool_id=999)


def test_new_limits_apply_from_the_next_round_not_the_one_in_play(casino, db) -> None:
    table, player = casino.table(), casino.player()
    casino.open(table)
    tables.edit_table(table, ANN, "high rollers", ante_max=Decimal(20), now=T0)
    rounds.place_bets(player, table, "50", "0", False, request_id="in-play", now=T0 + SECOND)  # old limits
    assert [change["settings"] for change in tables.pending_changes(table)] == [{"ante_max": "20"}]
    for minute in range(1, 6):
        casino.run(table, T0 + minute * 60 * SECOND)
    assert tables.pending_changes(table) == []
    assert db.session.get(GameTable, table).ante_max == Decimal(20)
    db.session.rollback()
    with pytest.raises(Unprocessable, match="ante"):
        rounds.place_bets(player, table, "50", "0", False, request_id="next", now=T0 + 301 * SECOND)
    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.action.like("table_change%"))
                                 .order_by(AuditEntry.id)).all()
    assert [(e.actor, e.action) for e in entries] == [("operator:ann", "table_change_requested"),
                                                       ("system", "table_change_applied")]
    assert entries[0].detail["before"] == {"ante_max": "500"} and entries[0].detail["reason"] == "high rollers"
    casino.assert_sound()


def test_an_unchanged_setting_is_not_a_change(casino) -> None:
    table = casino.table()
    tables.edit_table(table, ANN, "same", betting_seconds=tables.list_tables()[0].betting_seconds)
    assert tables.pending_changes(table) == []


def test_a_reason_is_required(casino) -> None:
    with pytest.raises(Unprocessable, match="reason"):
        tables.edit_table(casino.table(), ANN, " ", max_bettors=3)

