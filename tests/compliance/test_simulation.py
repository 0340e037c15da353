"""The vectorised rules (compliance/batch_rules.py) and the simulator (compliance/simulate.py): the
same settlement as their scalar twins in core.rules, cent for cent, and reproducible runs."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
from scipy import stats

from casino_holdem.compliance.batch_rules import BOARD_COLUMNS, PLAYER_COLUMNS, pool_before, settle_rounds, walk_pool
from casino_holdem.compliance.simulate import TableSetup, chunk_generator, deal, decide, simulate
from casino_holdem.compliance.strategies import AlwaysPlay, Basic
from casino_holdem.core.cards import Card, parse_cards
from casino_holdem.core.money import POOL_QUANTUM
from casino_holdem.core.paytable import Paytable
from casino_holdem.core.rules import ALL_BETS, DealtCards, Stake, settle

#: rounds that reach every progressive table, written as (Player, Dealer, board in dealing order)
SPECIAL_ROUNDS = [
    ("As Ks", "4h 5h", "Qs Js Ts 2c 3d"),    # P1 royal on the flop
    ("As Ks", "4h 5h", "Qs Js 2c Ts 3d"),    # P1 royal on the turn
    ("As 2c", "4h 5h", "Ks Qs Js 3d Ts"),    # P1 royal on the river
    ("2c 3d", "4h 5h", "As Ks Qs Js Ts"),    # P3 board royal
    ("Ah 2c", "4d 5d", "Kh Qh Jh Th 9h"),    # P1 on the turn, then P3 straight flush from what remains (R6)
    ("2c 3d", "4h 5h", "9c 9d 9h 9s Kd"),    # P3 board quads
    ("5h 6h", "Ac Ad", "7h 8h 9h 2c 3d"),    # P2 straight flush
    ("9c 9d", "Ac Ad", "9h 9s 2c 3d Kh"),    # P2 four of a kind
    ("Th 2c", "Ac Ad", "9h 8h 7h 6h 5h"),    # no double payment: P3 only, though the hole card improves it
    ("Ac Ad", "Ah As", "2c 7d 9h Jc 4s"),    # Bonus AA against the Dealer's AA
    ("2c 7d", "Ac Ad", "Kc Kd Kh Ks 3h"),    # basic folds 2-7 offsuit: P3 still pays the folded bettors
    ("2c 5d", "Ac Kd", "2h 2s 2d 9c Kh"),    # folded quads: P2 needs the Flop bet, nothing paid
    ("Qh Qd", "Kc Kd", "Qc Qs 3c 3d 3h"),    # P2 quads, the Dealer's full house loses
]


def cards_of(player: str, dealer: str, board: str) -> list[int]:
    p, d, b = (parse_cards(text.split()) for text in (player, dealer, board))
    return [card.id for card in (p[0], d[0], p[1], d[1], *b)]


def special_cards() -> np.ndarray:
    return np.array([cards_of(*round_) for round_ in SPECIAL_ROUNDS], np.uint8)


def settle_cards(cards: np.ndarray, setup: TableSetup) -> dict[str, np.ndarray]:
    """Round-by-round batch settlement of given cards (n, 9) for one bettor's stakes: decisions,
    every bet's stake and return, the progressive award and the pool before and after each round
    (quanta, the seed top-up included in ``pool_after``), for the cross-check against
    ``core.rules.settle``; the simulator sums the same rounds."""
    units = setup.units()
    played, turn_bet, river_bet = decide(setup.strategy, cards[:, PLAYER_COLUMNS], cards[:, BOARD_COLUMNS])
    rounds = settle_rounds(cards, played, turn_bet, river_bet, units)
    walk = walk_pool(rounds.hits, len(cards), units)
    index = rounds.hits.index
    detail = {"played": played.astype(np.int64), "turn_bet": turn_bet.astype(np.int64),
              "river_bet": river_bet.astype(np.int64)}
    for bet in rounds.stakes:
        detail[f"{bet}_stake"], detail[f"{bet}_return"] = rounds.stakes[bet], rounds.returns[bet]
    detail["progressive_stake"] = np.full(len(cards), units.progressive, np.int64)
    detail["progressive_return"] = np.zeros(len(cards), np.int64)
    detail["progressive_return"][index] = walk.award_per_hit
    detail["pool_before"] = pool_before(np.arange(len(cards)), rounds.hits, walk, units)
    detail["pool_after"] = detail["pool_before"] + units.contribution
    detail["pool_after"][index] = walk.after
    detail["top_up"] = np.zeros(len(cards), np.int64)
    detail["top_up"][index] = walk.top_up
    return detail


def check_against_core(setup: TableSetup, cards: np.ndarray) -> int:
    """Settle each round with core.rules.settle for ``setup.bettors`` bettors and compare every bet
    of every bettor, the progressive awards and the pool, round by round. Returns the number of
    rounds that paid a progressive prize."""
    paytable, currency = setup.paytable, setup.paytable.currency(setup.currency)
    detail = settle_cards(cards, setup)
    assert Decimal(int(detail["pool_before"][0])) * POOL_QUANTUM == setup.pool
    paid_rounds = 0
    for i, row in enumerate(cards.tolist()):
        dealt = DealtCards(player=(Card(row[0]), Card(row[2])), dealer=(Card(row[1]), Card(row[3])),
                           board=tuple(Card(c) for c in row[4:]))
        played, turn_bet, river_bet = (bool(detail[key][i]) for key in ("played", "turn_bet", "river_bet"))
        stakes = [Stake(f"b{k}", setup.currency, ante=setup.ante, bonus=setup.bonus,
                        progressive=currency.multiplier if setup.progressive else Decimal(0),
                        flop=2 * setup.ante if played else Decimal(0), turn=setup.ante if turn_bet else Decimal(0),
                        river=setup.ante if river_bet else Decimal(0), folded=not played)
                  for k in range(setup.bettors)]
        before = Decimal(int(detail["pool_before"][i])) * POOL_QUANTUM
        settlement = settle(paytable, dealt, stakes, before)
        for bettor in settlement.bettors:
            for bet in ALL_BETS:
                result = bettor.bets[bet]
                assert result.stake == Decimal(int(detail[f"{bet}_stake"][i])) * currency.unit, (i, bet)
                assert result.returned == Decimal(int(detail[f"{bet}_return"][i])) * currency.unit, (i, bet)
        pool = settlement.pool
        assert pool.after + pool.top_up == Decimal(int(detail["pool_after"][i])) * POOL_QUANTUM, i
        assert Decimal(int(detail["top_up"][i])) * POOL_QUANTUM == pool.top_up
        if i + 1 < len(cards):
            assert detail["pool_before"][i + 1] == detail["pool_after"][i]
        paid_rounds += pool.paid > 0
    return paid_rounds


def test_special_rounds_settle_as_the_core_does(standard: Paytable) -> None:
    setup = TableSetup(standard, Basic(), bettors=3, ante=Decimal(10), bonus=Decimal(5), currency="RMB",
                       pool=Decimal("40000.12345"))
    assert check_against_core(setup, special_cards()) == 11


def test_capped_prizes_and_seed_top_ups_settle_as_the_core_does(house_flush: Paytable) -> None:
    """From an empty pool every fixed prize is capped (R5: the whole pool is shared) and the
    house tops the pool up to its seed of 500 afterwards; IDR shares round down to 0.001."""
    setup = TableSetup(house_flush, Basic(), bettors=7, ante=Decimal(5), bonus=Decimal(1), currency="IDR")
    cards = np.concatenate([special_cards()[[3, 5, 6]], special_cards()])
    assert check_against_core(setup, cards) == 14


@pytest.mark.parametrize("strategy, bettors, currency", [(Basic(), 1, "USD"), (AlwaysPlay(), 4, "JPY")])
def test_random_rounds_settle_as_the_core_does(standard: Paytable, strategy, bettors: int, currency: str) -> None:
    cards = deal(chunk_generator(2024, 0), 1500)
    setup = TableSetup(standard, strategy, bettors=bettors, ante=Decimal(25) if currency == "JPY" else Decimal(2),
                       bonus=Decimal(10) if currency == "JPY" else Decimal("0.5"), currency=currency,
                       pool=Decimal("1234.5"))
    check_against_core(setup, np.concatenate([cards, special_cards(), cards[:200]]))


def test_a_run_is_reproduced_by_its_seed(standard: Paytable) -> None:
    setup = TableSetup(standard, Basic(), bettors=2)
    first = simulate(setup, 300_000, seed=9, chunk=50_000)
    again = simulate(setup, 300_000, seed=9, chunk=50_000, threads=1)
    other = simulate(setup, 300_000, seed=10, chunk=50_000)
    assert first.sums == again.sums and first.walk.final == again.walk.final and first.samples == again.samples
    assert all((first.counts[key] == again.counts[key]).all() for key in first.counts)
    assert first.sums != other.sums


def test_batch_totals_equal_the_round_by_round_settlement(standard: Paytable) -> None:
    setup = TableSetup(standard, Basic(), bettors=3, pool=Decimal(500))
    run = simulate(setup, 40_000, seed=5, chunk=40_000)
    detail = settle_cards(deal(chunk_generator(5, 0), 40_000), setup)
    for group in ("ante", "flop", "turn", "river", "bonus", "progressive"):
        assert run.sums[group][:2] == [int(detail[f"{group}_stake"].sum()), int(detail[f"{group}_return"].sum())]
    assert run.walk.final == int(detail["pool_after"][-1])


def test_dealt_cards_are_distinct_and_uniform() -> None:
    cards = deal(chunk_generator(1, 0), 200_000)
    assert (np.sort(cards, axis=1)[:, 1:] != np.sort(cards, axis=1)[:, :-1]).all()
    for column in cards.T:
        counts = np.bincount(column, minlength=52)
        assert stats.chisquare(counts).pvalue > 1e-4
    # the 9 cards of a round are an ordered sample without replacement: pairs of columns too
    pairs = np.bincount(cards[:, 0].astype(np.int64) * 52 + cards[:, 8], minlength=2704).reshape(52, 52)
    off_diagonal = pairs[~np.eye(52, dtype=bool)]
    assert stats.chisquare(off_diagonal).pvalue > 1e-4 and np.trace(pairs) == 0


def test_setup_refuses_amounts_the_currency_cannot_hold(standard: Paytable) -> None:
    with pytest.raises(ValueError, match="units"):
        TableSetup(standard, Basic(), ante=Decimal("0.001"))
    with pytest.raises(KeyError):
        TableSetup(standard, Basic(), currency="XYZ")
    with pytest.raises(ValueError, match="bettor"):
        TableSetup(standard, Basic(), bettors=0)
