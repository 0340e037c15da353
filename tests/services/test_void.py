"""R9: a void round refunds every stake still in play, reverses the pool contributions, keeps a
fold made before the incident, lets the Bonus stand after a shuffler jam, and is audited."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import select

from casino_holdem.models import AuditEntry
from casino_holdem.services import jackpot, pool_admin, rounds, verify, voids
from casino_holdem.services.errors import BadRequest, Conflict, Unprocessable
from support.casino import SECOND, T0, deck_with, staff


@pytest.fixture
def in_play(casino):
    """Two bettors with Ante 10, Bonus 5 and the Progressive; the hole cards dealt (Player A-A)."""
    pool = casino.pool(seed="50")
    table = casino.table(pool)
    alice, bob = casino.player(), casino.player()
    round_id = casino.open(table, deck_with("Ac Ad", "4h Kd", "9s 8s 2c 3h Jd"))
    for player in (alice, bob):
        rounds.place_bets(player, table, "10", "5", True, request_id=f"p{player}", now=T0)
    casino.run(table, T0 + 10 * SECOND)
    return casino, pool, table, round_id, alice, bob


def test_r9_void_during_betting_refunds_everything(casino) -> None:
    pool = casino.pool(seed="50")
    table, player = casino.table(pool), casino.player()
    round_id = casino.open(table)
    rounds.place_bets(player, table, "10", "5", True, request_id="p", now=T0)
    voids.void_round(round_id, "card_exposed_during_betting", by=staff("pit", "pit"), now=T0 + SECOND)
    assert casino.balance(player) == Decimal(1000)
    assert jackpot.pool_view(pool).amount == Decimal(50)
    assert verify.replay(round_id).identical
    casino.assert_sound()


def test_r9_a_fold_before_the_incident_stands(in_play) -> None:
    casino, pool, table, round_id, alice, bob = in_play
    rounds.decide(alice, round_id, "fold", request_id="a", now=T0 + 11 * SECOND)
    rounds.decide(bob, round_id, "flop", request_id="b", now=T0 + 11 * SECOND)
    casino.run(table, T0 + 12 * SECOND)
    view = voids.void_round(round_id, "misdeal", by=staff("pit", "pit"), now=T0 + 13 * SECOND)
    assert view["result"]["void"] == {"reason": "misdeal", "stage": "flop"} and "deck" in view["reveal"]
    assert casino.balance(alice) == Decimal(1000 - 10 - 5)  # Ante and Bonus lost; Progressive refunded
    assert casino.balance(bob) == Decimal(1000)
    assert jackpot.pool_view(pool).amount == Decimal(50)
    assert verify.replay(round_id).identical
    casino.assert_sound()


def test_r9_after_a_shuffler_jam_the_bonus_stands(in_play) -> None:
    casino, _pool, _table, round_id, alice, bob = in_play
    voids.void_round(round_id, "shuffler_jam", by=staff("pit", "pit"), now=T0 + 11 * SECOND)
    for player in (alice, bob):  # A-A pays 30 to 1 (R4); every other stake comes back
        assert casino.balance(player) == Decimal(1000 + 5 * 30)
    casino.assert_sound()


def test_r9_a_void_is_audited_and_happens_once(in_play, db) -> None:
    casino, _pool, table, round_id, _alice, _bob = in_play
    with pytest.raises(Unprocessable, match="stage"):
        voids.void_round(round_id, "misdeal", "river", by=staff("pit", "pit"))
    with pytest.raises(BadRequest):
        voids.void_round(round_id, "bad luck", by=staff("pit", "pit"))
    voids.void_round(round_id, "dropped_card_seen", "hole_cards", by=staff("pit", "pit"))
    with pytest.raises(Conflict, match="R9"):
        voids.void_round(round_id, "misdeal", by=staff("pit", "pit"))
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "round_void")).one()
    assert (entry.actor, entry.detail["reason"], entry.detail["stage"]) == ("operator:pit", "dropped_card_seen",
                                                                           "hole_cards")
    assert casino.run(table, T0 + 20 * SECOND) == ["opened"]  # the table goes on with a new round


def test_r9_void_after_the_pool_paid_out_its_contributions_is_refunded_by_the_house(casino, db) -> None:
    """R5 keeps the pool at or above zero, R9 refunds the Progressive: when a linked table's prize
    (here an operator's correction) took the contributions, the house refills what the refund needs."""
    pool = casino.pool()
    table, player = casino.table(pool), casino.player()
    round_id = casino.open(table)
    rounds.place_bets(player, table, "10", "0", True, request_id="p", now=T0)
    asked = pool_admin.request_correction(pool, "-0.5", "meter showed too much", staff("ann", "manager"))
    pool_admin.approve_correction(asked["id"], staff("ben", "manager"))
    voids.void_round(round_id, "operator", by=staff("pit", "pit"), now=T0 + SECOND)
    assert casino.balance(player) == Decimal(1000)
    assert jackpot.pool_view(pool).amount == 0
    top_up = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "round_void")).one()
    assert top_up.detail["reason"] == "operator"
    casino.assert_sound()
