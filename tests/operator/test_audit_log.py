"""The audit log for auditors: every operator action is there with who, the before/after values and
why, found by actor, table, round, action and time, and exported as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json

import pytest

from casino_holdem.services import pool_admin, tables, voids
from casino_holdem.services.audit_log import AuditFilter, search, to_csv, to_json
from casino_holdem.services.errors import Unprocessable
from support.casino import SECOND, T0, staff

ANN = staff("ann", "manager")


def test_operator_actions_are_found_by_actor_action_table_round_and_time(casino) -> None:
    table = casino.table()
    round_id = casino.open(table)
    tables.edit_table(table, ANN, "slower", betting_seconds=20, now=T0 + SECOND)
    pool_admin.request_correction(casino.pool(), "5", "meter", ANN, now=T0 + 2 * SECOND)
    voids.void_round(round_id, "operator", by=staff("pit", "pit"), now=T0 + 3 * SECOND)
    mine = search(AuditFilter(actor="operator:ann"))
    assert [entry["action"] for entry in mine] == ["pool_correction_requested", "table_change_requested"]
    change = mine[1]["detail"]
    assert (change["before"], change["after"], change["reason"]) == ({"betting_seconds": 10},
                                                                     {"betting_seconds": 20}, "slower")
    assert [e["action"] for e in search(AuditFilter(round_id=round_id))] == ["round_void", "round_opened"]
    assert {e["table_id"] for e in search(AuditFilter(table_id=table))} == {table}
    window = search(AuditFilter(since=T0 + SECOND, until=T0 + 3 * SECOND))
    assert [e["action"] for e in window] == ["pool_correction_requested", "table_change_requested"]
    assert search(AuditFilter(action="round_void", actor="operator:pit"))[0]["detail"]["reason"] == "operator"


def test_exports_carry_every_entry_as_csv_and_json(casino) -> None:
    tables.edit_table(casino.table(), ANN, "cap", max_bettors=4, now=T0)
    entries = search(AuditFilter())
    rows = list(csv.DictReader(io.StringIO(to_csv(entries))))
    assert [row["action"] for row in rows] == [entry["action"] for entry in entries]
    assert json.loads(rows[0]["detail"])["reason"] == "cap"
    assert json.loads(to_json(entries))["entries"] == entries


@pytest.mark.parametrize(("criteria", "field"), [(AuditFilter(limit=0), "limit"),
                                                 (AuditFilter(since=T0, until=T0), "until")])
def test_bad_filters_are_refused_naming_the_field(db, criteria, field) -> None:
    with pytest.raises(Unprocessable) as refused:
        search(criteria)
    assert refused.value.field == field
