"""Jackpot pools in the back office (R5, R6, R9): the history with how each prize was shared, a
reconciliation that proves the pool, four-eyes corrections, and two linked tables hitting at once."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino_holdem.core.money import round_down
from casino_holdem.services import jackpot, pool_admin
from casino_holdem.services.errors import Conflict, NotFound, Unprocessable
from support.casino import SECOND, T0, staff

ANN, BEN = staff("ann", "manager"), staff("ben", "manager")


def _finish(casino, table: int) -> None:
    for minute in range(1, 5):
        casino.run(table, T0 + minute * 60 * SECOND)


def test_r9_a_correction_moves_nothing_until_a_second_manager_approves(casino) -> None:
    pool = casino.pool(seed="100")
    asked = pool_admin.request_correction(pool, "-40", "the meter showed 40 too much", ANN)
    assert jackpot.pool_view(pool).amount == Decimal(100)
    with pytest.raises(Conflict, match="four-eyes"):
        pool_admin.approve_correction(asked["id"], ANN)
    done = pool_admin.approve_correction(asked["id"], BEN)
    assert (done["status"], done["decided_by"]) == ("approved", "operator:ben")
    assert jackpot.pool_view(pool).amount == Decimal(60)
    with pytest.raises(Conflict, match="already approved"):
        pool_admin.approve_correction(asked["id"], staff("cy", "manager"))
    assert pool_admin.reconcile(pool).sound
    casino.assert_sound()


@pytest.mark.parametrize(("amount", "field"), [("0", "amount"), ("0.000001", "amount")])
def test_r9_a_correction_is_a_non_zero_amount_of_base_units(casino, amount, field) -> None:
    with pytest.raises(Unprocessable) as refused:
        pool_admin.request_correction(casino.pool(), amount, "why", ANN)
    assert refused.value.field == field


def test_r5_an_approved_correction_never_takes_the_pool_below_zero(casino) -> None:
    pool = casino.pool(seed="10")
    asked = pool_admin.request_correction(pool, "-11", "too much", ANN)
    with pytest.raises(Unprocessable, match="below zero"):
        pool_admin.approve_correction(asked["id"], BEN)
    assert pool_admin.corrections(pool)[0]["status"] == "pending"
    rejected = pool_admin.reject_correction(asked["id"], BEN, "wrong amount")
    assert rejected["status"] == "rejected" and jackpot.pool_view(pool).amount == Decimal(10)


def test_r5_two_linked_tables_hitting_at_once_are_paid_in_lock_order(casino) -> None:
    """The house's rule: the second prize is its percentage of the pool the first one left."""
    pool = casino.pool(seed="1000")
    first, second = casino.table(pool), casino.table(pool)
    alice, bob = casino.player(), casino.player()
    casino.play_royal(first, alice, "a")
    casino.play_royal(second, bob, "b")
    with_contributions = Decimal(1000) + 2 * Decimal("0.95")  # R5: both rounds' contributions are in
    _finish(casino, first)
    _finish(casino, second)
    prizes = [row for row in reversed(pool_admin.history(pool)) if row["kind"] == "prize"]
    assert [p["shares"][0]["player_id"] for p in prizes] == [alice, bob]
    first_prize = with_contributions * Decimal("0.9")
    assert prizes[0]["amount"] == -first_prize
    # paid in the bettor's currency, rounded down to its unit (R6: USD cents)
    assert prizes[1]["amount"] == -round_down((with_contributions - first_prize) * Decimal("0.9"), Decimal("0.01"))
    assert prizes[0]["shares"][0]["share_of"] == 1 and prizes[0]["shares"][0]["hand"]
    check = pool_admin.reconcile(pool)
    assert check.sound and check.by_kind["prize"] == sum(p["amount"] for p in prizes)
    casino.assert_sound()


def test_an_unknown_correction_is_not_found_naming_its_field(db) -> None:
    with pytest.raises(NotFound) as missing:
        pool_admin.approve_correction(99, BEN)
    assert missing.value.field == "correction_id"
