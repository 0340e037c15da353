"""Settlement through the ledger (R3-R6), progressive prizes shared across currencies, the seed
top-up, and replay of stored rounds."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select, text

from casino_holdem.models import AwardRecord, MovementKind, PoolMovement
from casino_holdem.services import jackpot, rounds, verify, viewing
from support.casino import SECOND, T0, deck_with

ROOT = Path(__file__).resolve().parents[2]


def _play_to_the_end(casino, table: int, round_id: int, players: dict[int, list[str]]) -> None:
    """Each player's actions street by street (pre-flop, flop, turn), then settle."""
    now = T0 + 10 * SECOND
    assert casino.run(table, now) == ["hole_cards"]
    for street in range(3):
        for player, actions in players.items():
            if street < len(actions):
                rounds.decide(player, round_id, actions[street], request_id=f"{player}-{street}", now=now)
        now += 10 * SECOND
        casino.run(table, now, steps=1)
    assert casino.run(table, now, steps=1) == ["settled"]


def test_r3_a_won_round_moves_the_money_and_replays_identically(casino) -> None:
    table, player = casino.table(), casino.player()
    round_id = casino.open(table, deck_with("Ah Kh", "2c 7d", "Qh Jh 9c 3s Th"))  # Royal flush on the river
    rounds.place_bets(player, table, "10", "5", False, request_id="r", now=T0)
    _play_to_the_end(casino, table, round_id, {player: ["flop", "bet", "bet"]})
    # Ante 10, Flop 20, Turn 10, River 10 all win 1:1; Bonus A-K suited pays 25 to 1 (R4)
    assert casino.balance(player) == Decimal(1000 + 10 + 20 + 10 + 10 + 5 * 25)
    view = viewing.house_view(round_id)
    assert view["result"]["player_hand"] == "royal_flush" and view["reveal"]["deck"].startswith("Ah 2c Kh 7d")
    assert verify.replay(round_id).identical
    casino.assert_sound()


def test_r6_a_p3_prize_is_shared_across_currencies_and_tables_share_the_pool(casino) -> None:
    pool = casino.pool(seed="1000")
    first, second = casino.table(pool), casino.table(pool)
    usd, rmb, thb = casino.player("USD", "1000"), casino.player("RMB", "10000"), casino.player("THB", "100000")
    round_id = casino.open(first, deck_with("2c 3d", "4h Kd", "9s 8s 7s 6s 5s"))  # board straight flush
    casino.open(second)
    rounds.place_bets(usd, first, "10", progressive=True, request_id="u", now=T0)
    rounds.place_bets(rmb, first, "50", progressive=True, request_id="r", now=T0)
    rounds.place_bets(thb, second, "250", progressive=True, request_id="t", now=T0)
    assert jackpot.pool_view(pool).amount == Decimal("1002.85")
    _play_to_the_end(casino, first, round_id, {usd: ["flop"], rmb: ["fold"]})
    # R5: P3 (USD 600) goes to every Progressive bettor of the round, folded or not; R6: × multiplier
    assert casino.balance(usd) == Decimal(1000 - 1 + 300)  # main game ties: every bet pushes
    assert casino.balance(rmb) == Decimal(10000 - 50 - 5 + 1500)
    assert jackpot.pool_view(pool).amount == Decimal("402.85")
    assert jackpot.pool_view(pool).meters["THB"] == Decimal("10071.25")
    awards = verify.replay(round_id)
    assert awards.identical and len(awards.settlement["bettors"]) == 2
    casino.assert_sound()


@pytest.fixture
def seeded_paytables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for source in (ROOT / "paytables" / "standard-v1.toml", ROOT / "tests" / "paytables" / "house-flush-v1.toml"):
        shutil.copy(source, tmp_path / source.name)
    monkeypatch.setenv("CASINO_PAYTABLES_DIR", str(tmp_path))


def test_r5_a_prize_larger_than_the_pool_takes_it_all_and_the_house_seeds_it(casino, seeded_paytables) -> None:
    pool = casino.pool(seed="100")
    table = casino.table(pool, paytable="house-flush")
    player = casino.player()
    round_id = casino.open(table, deck_with("2c 3d", "4h Kd", "As Ks Qs Js Ts"))  # board Royal Flush: P3 4000
    rounds.place_bets(player, table, "10", progressive=True, request_id="p", now=T0)
    _play_to_the_end(casino, table, round_id, {player: ["fold"]})
    assert casino.balance(player) == Decimal(1000 - 10 - 1) + Decimal("100.95")  # the whole pool (R5)
    moves = {m.kind: m.amount for m in casino_moves(round_id)}
    assert moves == {"prize": Decimal("-100.95"), "seed_top_up": Decimal(500)}
    assert jackpot.pool_view(pool).amount == Decimal(500)
    assert verify.replay(round_id).identical
    casino.assert_sound()


def casino_moves(round_id: int) -> list[PoolMovement]:
    from casino_holdem.extensions import db

    return list(db.session.scalars(select(PoolMovement).where(PoolMovement.round_id == round_id,
                                                               PoolMovement.kind != MovementKind.CONTRIBUTION.value)))


def test_replay_reports_a_record_that_differs(casino, db) -> None:
    pool = casino.pool(seed="1000")
    table, player = casino.table(pool), casino.player()
    round_id = casino.open(table, deck_with("7c 7d", "4h Kd", "7s 7h 2s 9d Jc"))  # quads: P2 120
    rounds.place_bets(player, table, "10", progressive=True, request_id="p", now=T0)
    _play_to_the_end(casino, table, round_id, {player: ["flop", "check", "check"]})
    assert verify.replay(round_id).identical
    db.session.rollback()
    with db.engine.begin() as connection:
        connection.execute(text("UPDATE awards SET share_of = 2"))
    report = verify.replay(round_id)
    assert not report.identical and any(line.startswith("award:") for line in report.differences)
    assert db.session.scalars(select(AwardRecord)).one().share_of == 2
