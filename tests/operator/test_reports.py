"""Reports add up to the ledger to the cent: per table and day and for any period, stakes and
payouts per bet type and currency, gross gaming revenue, observed return and the pool's side."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from casino_holdem.commands.operator import exact_bonus
from casino_holdem.services import reports, rounds, voids
from casino_holdem.services.errors import Unprocessable
from casino_holdem.services.viewing import house_table_view
from support.casino import SECOND, T0, deck_with, staff

DAY = T0.date()


@pytest.fixture
def played(casino):
    """One settled round (USD and THB bettors) and one void round on a table, on the day of T0."""
    pool = casino.pool(seed="100")
    table = casino.table(pool)
    usd, thb = casino.player(), casino.player("THB", "30000")
    first = casino.open(table, deck_with("Ac Ad", "4h Kd", "9s 8s 2c 3h Jd"))
    rounds.place_bets(usd, table, "10", "5", True, request_id="u", now=T0)
    rounds.place_bets(thb, table, "350", "0", True, request_id="t", now=T0)
    casino.run(table, T0 + 10 * SECOND)
    rounds.decide(usd, first, "flop", request_id="uf", now=T0 + 11 * SECOND)
    rounds.decide(thb, first, "fold", request_id="tf", now=T0 + 11 * SECOND)
    for minute in range(1, 4):
        casino.run(table, T0 + minute * 60 * SECOND)
    casino.run(table, T0 + 200 * SECOND)  # the next round opens
    return casino, table, usd, thb


def test_reports_add_up_to_the_ledger_to_the_cent(played) -> None:
    casino, table, usd, thb = played
    day = reports.report(*reports.day_bounds(DAY), table)
    assert day.ledger_agrees and day.rounds == 1 and day.bettors == 2
    assert day.revenue["USD"] == Decimal(1000) - casino.balance(usd)
    assert day.revenue["THB"] == Decimal(30000) - casino.balance(thb)
    lines = {(line.bet, line.currency): line for line in day.lines}
    assert lines[("bonus", "USD")].returned == Decimal(5 * 31)  # R4: A-A pays 30 to 1
    assert lines[("ante", "THB")].revenue == Decimal(350)          # folded: the Ante is lost (R2.3)
    assert day.contributions == Decimal("1.9") and day.prizes == 0
    casino.assert_sound()


def test_a_void_round_is_reported_and_still_adds_up(played) -> None:
    casino, table, usd, _thb = played
    void_at = T0 + 201 * SECOND
    round_id = house_table_view(table)["round"]["round_id"]
    rounds.place_bets(usd, table, "10", "0", True, request_id="again", now=void_at)
    voids.void_round(round_id, "card_exposed_during_betting", by=staff("pit", "pit"), now=void_at + SECOND)
    day = reports.report(*reports.day_bounds(DAY), table)
    assert (day.rounds, day.void_rounds) == (2, 1) and day.ledger_agrees
    assert day.contributions == Decimal("1.9")  # the void's contribution came back out (R9)
    whole = reports.report(T0 - dt.timedelta(days=30), T0 + dt.timedelta(days=1))
    assert whole.revenue == day.revenue and whole.table_id is None


def test_observed_return_sits_next_to_the_exact_bonus_figure(played) -> None:
    day = reports.report(*reports.day_bounds(DAY), exact_bonus=exact_bonus)
    bonus = next(item for item in day.observed if item.bet == "bonus")
    assert bonus.count == 1 and bonus.ratio == Decimal(31) and Decimal("0.9") < bonus.exact < Decimal(1)
    ante = next(item for item in day.observed if item.bet == "ante")
    assert ante.exact is None and ante.count == 2  # the Ante's exact figure depends on how players play
    # R6: in base units, USD 10 pushed (10 back) and THB 350 = 14 base units folded: 10 / 24
    assert ante.ratio == Decimal("0.416667") and ante.ci95[0] < ante.ratio < ante.ci95[1]


def test_the_csv_has_a_row_per_bet_and_currency_and_the_totals(played) -> None:
    text = reports.to_csv([reports.report(*reports.day_bounds(DAY))])
    rows = [line.split(",") for line in text.strip().splitlines()]
    assert rows[0][:3] == ["start", "end", "table_id"]
    assert {(row[6], row[7]) for row in rows[1:]} >= {("ante", "USD"), ("ante", "THB"), ("total", "USD")}


def test_a_period_ends_after_it_starts(db) -> None:
    with pytest.raises(Unprocessable, match="end"):
        reports.report(T0, T0)
