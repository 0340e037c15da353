"""Property: any sequence of service calls (bets, decisions, dealer steps, disconnections, voids,
pool corrections), refused or not, keeps the ledger balanced and every audit invariant true, and
every finished round replays identically."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from casino_holdem.extensions import db
from casino_holdem.models import GameRound
from casino_holdem.services import dealer_steps, pool_admin, rounds, verify, viewing, voids
from casino_holdem.services.errors import ServiceError
from support.casino import T0, deck_with, staff

DECKS = [None, deck_with("7c 7d", "4h Kd", "7s 7h 2s 9d Jc"), deck_with("2c 3d", "4h Kd", "As Ks Qs Js Ts"),
         deck_with("Ah Kh", "2c 7d", "Qh Jh Th 3s 4d"), deck_with("Ac Ad", "As Ah", "2c 7d 9h Jc 4s")]
CURRENCIES = [("USD", "300", 1), ("THB", "5000", 25), ("JPY", "30000", 100)]

player = st.integers(0, len(CURRENCIES) - 1)
table = st.integers(0, 1)
operation = st.one_of(
    st.tuples(st.just("bet"), player, table, st.integers(1, 20), st.booleans(), st.booleans()),
    st.tuples(st.just("decide"), player, table, st.sampled_from(["fold", "flop", "bet", "check"])),
    st.tuples(st.just("advance"), table, st.integers(0, 12)),
    st.tuples(st.just("disconnect"), player, table),
    st.tuples(st.just("reconnect"), player, table),
    st.tuples(st.just("void"), table, st.sampled_from(["misdeal", "shuffler_jam", "dropped_card_seen"])),
    st.tuples(st.just("correct"), st.integers(-300, 300)),
)


def _current(table_id: int) -> int | None:
    state = viewing.house_table_view(table_id)
    return None if state["round"] is None else state["round"]["round_id"]


def _apply(op: tuple, players: list[int], table_ids: list[int], pool: int, now: dt.datetime) -> dt.datetime:
    kind = op[0]
    if kind == "bet":
        _, who, where, units, bonus, progressive = op
        multiplier = CURRENCIES[who][2]
        ante = Decimal(units * multiplier)
        rounds.place_bets(players[who], table_ids[where], ante, ante if bonus else 0, progressive,
                          request_id=f"{now.timestamp()}-{who}-{where}", now=now)
    elif kind == "decide":
        _, who, where, action = op
        round_id = _current(table_ids[where])
        if round_id is not None:
            rounds.decide(players[who], round_id, action, request_id=f"{now.timestamp()}-{who}", now=now)
    elif kind == "advance":
        now += dt.timedelta(seconds=op[2])
        for _ in range(3):
            dealer_steps.advance(table_ids[op[1]], now)
    elif kind in ("disconnect", "reconnect"):
        getattr(rounds, kind)(players[op[1]], table_ids[op[2]], now=now)
    elif kind == "void":
        round_id = _current(table_ids[op[1]])
        if round_id is not None:
            voids.void_round(round_id, op[2], by=staff("pit", "pit"), now=now)
    else:
        asked = pool_admin.request_correction(pool, Decimal(op[1]) / 100, "property test", staff("ann", "manager"),
                                              now=now)
        pool_admin.approve_correction(asked["id"], staff("ben", "manager"), now=now)
    return now


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(decks=st.lists(st.sampled_from(range(len(DECKS))), min_size=4, max_size=4),
       operations=st.lists(operation, min_size=5, max_size=40))
def test_any_sequence_of_service_calls_keeps_the_ledger_sound(casino, decks, operations) -> None:
    pool = casino.pool(seed="100")
    table_ids = [casino.table(pool, betting_seconds=5, decision_seconds=5) for _ in range(2)]
    players = [casino.player(currency, amount) for currency, amount, _ in CURRENCIES]
    casino.decks[:] = [DECKS[i] for i in decks if DECKS[i] is not None]
    now = T0 + dt.timedelta(seconds=1)
    for table_id in table_ids:
        dealer_steps.advance(table_id, T0)
    for op in operations:
        now += dt.timedelta(seconds=1)
        try:
            now = _apply(op, players, table_ids, pool, now)
        except ServiceError:
            pass  # a refusal changes nothing; the invariants below say so
    assert verify.audit_ledger() == []
    finished = db.session.scalars(select(GameRound.id).where(GameRound.table_id.in_(table_ids),
                                                             GameRound.phase.in_(("settled", "void")))).all()
    db.session.rollback()
    event(f"rounds finished: {min(len(finished), 3)}+" if finished else "no round finished")
    for round_id in finished:
        assert verify.replay(round_id).differences == []
