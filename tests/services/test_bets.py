"""R2.1 bets through the ledger: idempotent retries, limits, units, the Flop-bet reservation, and
the Progressive contribution going into the pool at once (R5, R6)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import select

from casino_holdem.models import AuditEntry
from casino_holdem.services import jackpot, rounds, tables, wallet
from casino_holdem.services.errors import (
    Conflict,
    InsufficientFunds,
    NotFound,
    Unprocessable,
)
from support.casino import SECOND, T0, staff


def test_a_retry_with_the_same_request_id_debits_once(casino) -> None:
    player, table = casino.player(), casino.table()
    casino.open(table)
    first = rounds.place_bets(player, table, "10", "5", True, request_id="r-1", now=T0)
    again = rounds.place_bets(player, table, "10", "5", True, request_id="r-1", now=T0 + SECOND)
    assert again.bet_id == first.bet_id
    assert casino.balance(player) == Decimal(1000 - 10 - 5 - 1)
    assert len([p for p in wallet.postings(player) if p.kind == "bets"]) == 3  # ante, bonus, progressive legs
    casino.assert_sound()


def test_a_retry_after_betting_closed_still_returns_the_first_result(casino) -> None:
    player, table = casino.player(), casino.table()
    casino.open(table)
    first = rounds.place_bets(player, table, "10", request_id="r-1", now=T0)
    casino.run(table, T0 + 11 * SECOND)
    assert rounds.place_bets(player, table, "10", request_id="r-1", now=T0 + 12 * SECOND).bet_id == first.bet_id


def test_a_retry_of_a_past_round_s_bets_after_a_bet_on_the_next_round_returns_the_first_result(casino) -> None:
    """A retry is recognised by its request id, whatever round it was for, even when the player
    already bet on the round now taking bets (R2.1)."""
    player, table = casino.player(), casino.table()
    casino.open(table)
    first = rounds.place_bets(player, table, "10", request_id="r-1", now=T0)
    for seconds in (11, 30, 50, 60):  # R8: the house folds for the silent player; the round ends, the next opens
        casino.run(table, T0 + seconds * SECOND)
    later = rounds.place_bets(player, table, "10", request_id="r-2", now=T0 + 61 * SECOND)
    assert later.round_id != first.round_id
    assert rounds.place_bets(player, table, "10", request_id="r-1", now=T0 + 62 * SECOND).bet_id == first.bet_id
    with pytest.raises(Conflict, match="already placed bets on this round"):
        rounds.place_bets(player, table, "10", request_id="r-3", now=T0 + 62 * SECOND)
    casino.assert_sound()


def test_r2_1_bets_for_a_round_whose_betting_is_over_are_never_placed_on_the_next(casino) -> None:
    """Bets name the round the player saw taking bets: sent as its window closes and arriving when
    the next round takes bets, they are refused and cost nothing (R2.1, R8)."""
    other, player, table = casino.player(), casino.player(), casino.table()
    casino.open(table)
    first = rounds.place_bets(other, table, "10", request_id="o-1", now=T0)
    in_time = rounds.place_bets(player, table, "10", request_id="p-1", round_id=first.round_id, now=T0 + SECOND)
    for seconds in (11, 30, 50, 60):  # R8: the house decides for the silent players; the next round opens
        casino.run(table, T0 + seconds * SECOND)
    balance = casino.balance(other)
    with pytest.raises(Conflict, match=f"round {first.round_id} is not the round taking bets") as refused:
        rounds.place_bets(other, table, "10", request_id="o-2", round_id=first.round_id, now=T0 + 61 * SECOND)
    assert refused.value.field == "round_id"
    assert casino.balance(other) == balance
    retried = rounds.place_bets(player, table, "10", request_id="p-1", round_id=first.round_id, now=T0 + 61 * SECOND)
    assert retried.bet_id == in_time.bet_id  # a retry of bets placed in time still gets its receipt
    nxt = rounds.place_bets(other, table, "10", request_id="o-3", now=T0 + 61 * SECOND)
    assert nxt.round_id != first.round_id
    again = rounds.place_bets(player, table, "10", request_id="p-2", round_id=nxt.round_id, now=T0 + 62 * SECOND)
    assert again.round_id == nxt.round_id
    casino.assert_sound()


@pytest.mark.parametrize("elsewhere", [True, False], ids=["another table's round", "no such round"])
def test_r2_1_bets_naming_a_round_not_taking_bets_here_are_refused(casino, elsewhere: bool) -> None:
    player, table, other_table = casino.player(), casino.table(), casino.table()
    casino.open(table)
    casino.open(other_table)
    there = rounds.place_bets(casino.player(), other_table, "10", request_id="t", now=T0).round_id
    with pytest.raises(Conflict, match="not the round taking bets") as refused:
        rounds.place_bets(player, table, "10", request_id="r", round_id=there if elsewhere else 10**6, now=T0)
    assert refused.value.field == "round_id"
    assert casino.balance(player) == Decimal(1000)
    casino.assert_sound()


def test_the_same_request_id_with_other_content_is_a_conflict(casino) -> None:
    player, table = casino.player(), casino.table()
    casino.open(table)
    rounds.place_bets(player, table, "10", request_id="r-1", now=T0)
    with pytest.raises(Conflict) as error:
        rounds.place_bets(player, table, "20", request_id="r-1", now=T0)
    assert error.value.status == 409 and error.value.field == "request_id"


@pytest.mark.parametrize("ante, bonus, field, status", [
    ("0.5", "0", "ante", 422),        # R2.1: below the table minimum
    ("501", "0", "ante", 422),        # above the maximum
    ("10.001", "0", "ante", 422),     # R6: not a whole cent
    ("10", "101", "bonus", 422),
    ("ten", "0", "ante", 400),
])
def test_r2_1_bets_outside_the_limits_are_refused_and_cost_nothing(casino, ante, bonus, field, status) -> None:
    player, table = casino.player(), casino.table()
    casino.open(table)
    with pytest.raises(Exception) as error:
        rounds.place_bets(player, table, ante, bonus, request_id="r", now=T0)
    assert (error.value.field, error.value.status) == (field, status)
    assert casino.balance(player) == Decimal(1000)


def test_r6_limits_scale_with_the_multiplier(casino) -> None:
    player, table = casino.player("JPY", "1000000"), casino.table()
    casino.open(table)
    with pytest.raises(Unprocessable, match="below the table minimum 100 JPY"):
        rounds.place_bets(player, table, "99", request_id="r", now=T0)
    assert rounds.place_bets(player, table, "100", request_id="r2", now=T0).ante == Decimal(100)


def test_r2_3_the_balance_must_cover_the_flop_bet_and_later_bets(casino) -> None:
    player, table = casino.player(amount="49.99"), casino.table()
    casino.open(table)
    with pytest.raises(InsufficientFunds) as error:  # Ante 10 now, then up to 2 + 1 + 1 × Ante
        rounds.place_bets(player, table, "10", request_id="r", now=T0)
    assert error.value.status == 422 and error.value.field == "balance"
    rounds.place_bets(player, table, "9.99", request_id="r2", now=T0)
    assert wallet.balance(player).available == Decimal("49.99") - 5 * Decimal("9.99")


def test_the_reservation_spans_tables(casino) -> None:
    player, pool = casino.player(amount="60"), casino.pool()
    first, second = casino.table(pool), casino.table(pool)
    casino.open(first)
    casino.open(second)
    rounds.place_bets(player, first, "10", request_id="a", now=T0)  # 10 now, 40 kept for this round
    with pytest.raises(InsufficientFunds):
        rounds.place_bets(player, second, "2.01", request_id="b", now=T0)
    rounds.place_bets(player, second, "2", request_id="c", now=T0)


@pytest.mark.parametrize("currency, stake", [("USD", "1"), ("RMB", "5"), ("THB", "25"), ("JPY", "100")])
def test_r5_each_progressive_bet_puts_095_base_units_into_the_pool_at_once(casino, currency, stake) -> None:
    player, pool = casino.player(currency, "1000000"), casino.pool(seed="100")
    table = casino.table(pool)
    casino.open(table)
    receipt = rounds.place_bets(player, table, Decimal(stake) * 10, progressive=True, request_id="r", now=T0)
    assert receipt.progressive == Decimal(stake)
    assert jackpot.pool_view(pool).amount == Decimal("100.95")
    casino.assert_sound()


def test_betting_is_closed_after_the_deadline(casino) -> None:
    """A window somebody bet in closes at its deadline (R2.1); an empty one is reopened instead."""
    first, player, table = casino.player(), casino.player(), casino.table()
    casino.open(table)
    rounds.place_bets(first, table, "10", request_id="first", now=T0)
    with pytest.raises(Conflict, match="R2.1"):
        rounds.place_bets(player, table, "10", request_id="r", now=T0 + 10 * SECOND)


def test_r2_an_empty_betting_window_is_reopened_for_a_late_first_bet(casino) -> None:
    player, table = casino.player(), casino.table()
    casino.open(table)
    receipt = rounds.place_bets(player, table, "10", request_id="r", now=T0 + 10 * SECOND)
    assert receipt.ante == Decimal("10")


def test_unknown_table_and_player_are_404(casino) -> None:
    player = casino.player()
    with pytest.raises(NotFound):
        rounds.place_bets(player, 999, "10", request_id="r")
    with pytest.raises(NotFound):
        wallet.balance(999)


def test_deposits_are_idempotent_by_key(casino) -> None:
    player = casino.player(amount="0")
    wallet.deposit(player, "25.50", "k1")
    wallet.deposit(player, "25.50", "k1")
    assert casino.balance(player) == Decimal("25.50")
    with pytest.raises(Conflict):
        wallet.deposit(player, "30", "k1")
    with pytest.raises(Unprocessable):
        wallet.deposit(player, "0.001", "k2")


@pytest.mark.parametrize("settings, field", [
    ({"ante_min": Decimal("0.000001")}, "ante_min"), ({"ante_min": Decimal(-5)}, "ante_min"),
    ({"ante_min": Decimal(10), "ante_max": Decimal(5)}, "ante_min"), ({"bonus_max": Decimal(0)}, "bonus_max"),
    ({"max_bettors": 0}, "max_bettors"), ({"betting_seconds": 0}, "betting_seconds"),
])
def test_table_settings_are_validated(casino, settings: dict, field: str) -> None:
    with pytest.raises(Unprocessable) as refused:
        tables.create_table("Bad", casino.pool(), **settings)
    assert refused.value.field == field


def test_a_closed_tables_empty_round_waits_without_filling_the_audit_log(casino, db) -> None:
    table = casino.table()
    casino.open(table)
    tables.set_table_open(table, False, staff("pit", "pit"))
    assert casino.run(table, T0 + 60 * SECOND) == []
    assert not db.session.scalars(select(AuditEntry).where(AuditEntry.action == "betting_extended")).all()
