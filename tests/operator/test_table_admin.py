"""Tables in the back office (issue 11): created with their dealing source (R1), suspended and
resumed (the round in play finishes, R2, no new one opens), a pending change on an idle table
landing when its next round opens, and every operator action audited with the operator's id
and role, who, when, what, before/after and why."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import select

from casino_holdem.models import AuditEntry, GameRound, GameTable
from casino_holdem.services import dealer, paytable_versions, pool_admin, rounds, tables, voids, wallet
from casino_holdem.services.errors import Conflict, Unprocessable
from support.casino import SECOND, T0, TABLE_SETTINGS

MINUTE = 60 * SECOND


def _latest(db, table: int) -> GameRound:
    return db.session.scalars(select(GameRound).where(GameRound.table_id == table)
                              .order_by(GameRound.id.desc())).first()


def test_r1_a_table_is_created_with_its_dealing_source(casino) -> None:
    boss = casino.operator("boss", "manager")
    view = tables.create_table("Studio", casino.pool(), dealing="live", by=boss, **TABLE_SETTINGS)
    assert (view.dealing, view.is_open, view.suspended_reason) == ("live", True, None)
    with pytest.raises(Unprocessable) as refused:
        tables.create_table("Robot", casino.pool(), dealing="robot", by=boss)
    assert refused.value.field == "dealing"


def test_r2_a_suspended_table_finishes_the_round_in_play_and_opens_no_new_one(casino, db) -> None:
    pit = casino.operator("pat", "pit")
    table, alice, bob = casino.table(), casino.player(), casino.player()
    casino.open(table)
    rounds.place_bets(alice, table, "10", request_id="a", now=T0 + SECOND)
    view = tables.suspend_table(table, "card exposure being looked into", pit, now=T0 + 2 * SECOND)
    assert view.suspended_reason == "card exposure being looked into"
    with pytest.raises(Conflict, match="suspended"):  # no new bet, even in the betting window
        rounds.place_bets(bob, table, "10", request_id="b", now=T0 + 3 * SECOND)
    for minute in range(1, 4):
        casino.run(table, T0 + minute * MINUTE)
    assert _latest(db, table).phase == "settled" and _latest(db, table).number == 1  # finished by R8
    assert casino.run(table, T0 + 5 * MINUTE) == []
    assert table not in dealer.due(T0 + 5 * MINUTE).tables
    with pytest.raises(Conflict, match="already suspended"):
        tables.suspend_table(table, "again", pit)
    tables.resume_table(table, "all clear", pit, now=T0 + 6 * MINUTE)
    assert casino.run(table, T0 + 6 * MINUTE)[0] == "opened"
    casino.assert_sound()


@pytest.mark.parametrize("reason", ["", "   ", "x" * 201])
def test_a_suspension_needs_a_reason(casino, reason) -> None:
    with pytest.raises(Unprocessable) as refused:
        tables.suspend_table(casino.table(), reason, casino.operator("pat", "pit"))
    assert refused.value.field == "reason"


def test_resuming_a_table_that_is_not_suspended_is_refused(casino) -> None:
    with pytest.raises(Conflict, match="not suspended"):
        tables.resume_table(casino.table(), "", casino.operator("pat", "pit"))


def test_a_pending_change_on_an_idle_table_lands_on_its_empty_round(casino, db) -> None:
    """Nobody bets: the table's one empty round is never dealt (R2.1) and no next round ever
    opens, so the change lands on that round; no stake was placed under the old settings."""
    ann = casino.operator("ann", "manager")
    table, player = casino.table(), casino.player()
    round_id = casino.open(table)
    tables.edit_table(table, ann, "high rollers", ante_max=Decimal(20), betting_seconds=30, now=T0 + SECOND)
    assert [change["settings"] for change in tables.pending_changes(table)] == [
        {"ante_max": "20", "betting_seconds": 30}]  # the page lists it as waiting for the next round
    assert table in dealer.due(T0 + 2 * SECOND).tables
    assert casino.run(table, T0 + 2 * SECOND) == ["reopened"]
    assert tables.pending_changes(table) == [] and db.session.get(GameTable, table).ante_max == Decimal(20)
    reopened = db.session.get(GameRound, round_id)
    assert reopened.phase == "betting" and reopened.deadline == T0 + 32 * SECOND
    with pytest.raises(Unprocessable, match="ante"):
        rounds.place_bets(player, table, "50", request_id="big", now=T0 + 3 * SECOND)
    rounds.place_bets(player, table, "20", request_id="ok", now=T0 + 4 * SECOND)
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "round_reopened")).one()
    assert entry.round_id == round_id and entry.detail["given_up"]["nonce"]  # the old commitment can be checked
    casino.assert_sound()


def test_a_paytable_dated_later_lands_on_an_idle_table_once_effective(casino, db, variant) -> None:
    ann, ben = casino.operator("ann", "manager"), casino.operator("ben", "manager")
    table = casino.table()
    round_id = casino.open(table)
    draft = paytable_versions.submit(variant(2, effective_from="2026-12-03"), ann)
    paytable_versions.approve(draft.id, ben)
    paytable_versions.assign(table, draft.id, ben, "from Thursday", now=T0)
    assert table not in dealer.due(T0 + MINUTE).tables
    midnight = dealer.due(T0 + MINUTE).upcoming.get(table)
    assert midnight is not None and midnight.isoformat() == "2026-12-03T00:00:00+00:00"
    assert casino.run(table, midnight) == ["reopened"]
    assert db.session.get(GameRound, round_id).paytable_version == 2


def _actions(casino, ann, ben, pat, variant) -> None:
    """One of each audited back-office action (issue 11)."""
    table = casino.table()
    round_id = casino.open(table)
    tables.create_table("Created", casino.pool(), by=ann)
    tables.edit_table(table, ann, "cap", max_bettors=4, now=T0)
    tables.set_table_open(table, False, pat)
    tables.set_table_open(table, True, pat)
    tables.suspend_table(table, "incident", pat)
    tables.resume_table(table, "clear", pat)
    draft = paytable_versions.submit(variant(2), ann)
    paytable_versions.approve(draft.id, ben)
    paytable_versions.assign(table, draft.id, ben, "new odds", now=T0)
    paytable_versions.retire(draft.id, ann, "superseded")
    pool = casino.pool(seed="50")
    asked = pool_admin.request_correction(pool, "-1", "meter", ann)
    pool_admin.approve_correction(asked["id"], ben)
    rejected = pool_admin.request_correction(pool, "-2", "meter", ann)
    pool_admin.reject_correction(rejected["id"], ben, "wrong amount")
    voids.void_round(round_id, "operator", by=pat, now=T0 + SECOND)
    wallet.deposit(casino.player(), "5", "cash-1", by=ann)


ACTIONS = ("table_created", "table_change_requested", "table_closed", "table_opened", "table_suspended",
           "table_resumed", "paytable_submitted", "paytable_approved", "paytable_retired",
           "pool_correction_requested", "pool_correction", "pool_correction_rejected", "round_void", "deposit")


def test_every_operator_action_is_audited_with_the_operators_id_and_role(casino, db, variant) -> None:
    staff = {name: casino.operator(name, role) for name, role in (("ann", "manager"), ("ben", "manager"),
                                                                   ("pat", "pit"))}
    _actions(casino, staff["ann"], staff["ben"], staff["pat"], variant)
    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.actor.like("operator:%"))).all()
    assert {entry.action for entry in entries} == set(ACTIONS)
    for entry in entries:
        who = staff[entry.actor.removeprefix("operator:")]
        assert (entry.detail["operator_id"], entry.detail["role"]) == (who.id, who.role.value), entry.action
        assert {"before", "after", "reason"} <= set(entry.detail) and entry.at is not None, entry.action
    deposit = next(entry for entry in entries if entry.action == "deposit")
    assert (deposit.detail["before"], deposit.detail["after"]) == ("1000", "1005")
