"""Verification: replay a stored round through the core, and audit every ledger invariant.

Replay re-plays the round from its revealed deck, its recorded bets and decisions (automatic
ones with their R8 reason) and the paytable file it names (checked against the recorded SHA-256),
through :class:`~casino_holdem.core.round.Round`, then compares what the core's result implies
(:mod:`.round_postings`) with the postings, pool movements, awards and returns on record.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import func, select

from ..core.cards import parse_cards
from ..core.money import ZERO, format_amount
from ..core.paytable import Paytable
from ..core.round import (
    FINISHED,
    Action,
    AutoReason,
    Limits,
    Phase,
    Round,
    Timers,
)
from ..core.rules import Settlement, Stage, VoidReason
from ..core.scenario import settlement_json
from ..core.shuffle import parse_deck, verify
from ..extensions import db
from ..models import (
    NON_NEGATIVE_KINDS,
    AccountKind,
    AwardRecord,
    GameRound,
    JackpotPool,
    LedgerAccount,
    LedgerTransaction,
    MovementKind,
    PoolMovement,
    Posting,
)
from . import queries, round_postings
from .errors import Conflict, core_refusals
from .round_rows import table_paytable
from .transaction import transactional

#: R5/R9: the sign each kind of pool movement must have (+1 into the pool, 0 either way)
MOVEMENT_SIGN = {MovementKind.CONTRIBUTION: 1, MovementKind.CONTRIBUTION_REVERSAL: -1, MovementKind.PRIZE: -1,
                 MovementKind.SEED_TOP_UP: 1, MovementKind.CORRECTION: 0}


@dataclass(frozen=True, slots=True)
class ReplayReport:
    round_id: int
    identical: bool
    differences: list[str] = field(default_factory=list)
    settlement: dict[str, Any] = field(default_factory=dict)


def _replayed(round_row: GameRound, paytable: Paytable) -> Settlement:
    """Play the stored round again through the core state machine (no limits: the bets were
    accepted when placed; the clock does not matter once every decision is on record). A live
    round is dealt again from its recorded cards, one by one in R1 order."""
    live = round_row.dealing == "live"
    cards = parse_cards(round_row.deck.split(), what="deck") if live else parse_deck(round_row.deck)
    core = (Round.open_live(paytable, Limits(), Timers(), round_row.opened_at) if live
            else Round.open(paytable, cards, Limits(), Timers(), round_row.opened_at))
    # advancing after every recorded decision keeps each decision inside its replayed window (R8)
    late = max([round_row.opened_at + dt.timedelta(days=1),
                *(decision.decided_at for bet in round_row.bets for decision in bet.decisions)])
    for bet in round_row.bets:
        core.place_bets(str(bet.player_id), bet.currency, bet.ante, bet.bonus, bet.progressive > 0,
                        now=round_row.opened_at)

    def decide_street() -> None:
        street = core.rules.street
        for bet in round_row.bets:
            for decision in bet.decisions:
                if decision.street == street:
                    core.act(str(bet.player_id), Action(decision.action), now=decision.decided_at,
                             automatic=None if decision.automatic is None else AutoReason(decision.automatic))

    while core.dealt_count < round_row.dealt_count:
        if core.awaiting_cards:
            core.deal_card(cards[core.dealt_count], now=late)
            continue
        decide_street()
        core.advance(late)
    decide_street()
    if round_row.void_reason:
        stage = cast(str, round_row.void_stage)  # recorded with the reason (voids.void_round)
        return core.void(VoidReason(round_row.void_reason), round_row.pool_before or ZERO, Stage(stage))
    if core.phase is not Phase.SHOWDOWN:
        raise Conflict(f"round: {round_row.id} did not reach the showdown on replay", "round")
    return core.settle(round_row.pool_before or ZERO)


def _compare(what: str, expected: Counter[Any], recorded: Counter[Any]) -> list[str]:
    missing, extra = expected - recorded, recorded - expected
    return ([f"{what}: expected {item} not on record" for item in sorted(missing, key=str)]
            + [f"{what}: recorded {item} not expected" for item in sorted(extra, key=str)])


@transactional
def replay(round_id: int) -> ReplayReport:
    """Re-settle a finished round and compare with the record (see the module docstring)."""
    round_row = queries.get(GameRound, round_id)
    if round_row.phase not in FINISHED:
        raise Conflict(f"round: {round_id} is {round_row.phase}; only settled or void rounds are replayed", "round")
    with core_refusals("paytable"):
        paytable = table_paytable(round_row)
    result = _replayed(round_row, paytable)
    differences = []
    if round_row.commitment is not None and round_row.nonce is not None and not verify(
            round_row.commitment, parse_deck(round_row.deck), round_row.nonce):
        differences.append("commitment: the revealed deck and nonce do not match the published commitment")
    build = round_postings.voided if round_row.void_reason else round_postings.settled
    end = build(round_row, result, round_row.table.pool_id, result.paytable)
    kind = "void" if round_row.void_reason else "settlement"
    recorded_postings = db.session.scalars(
        select(Posting).join(LedgerTransaction).where(LedgerTransaction.round_id == round_id,
                                                      LedgerTransaction.kind == kind)).all()
    # a posting's account_id is a foreign key: Session.get always finds the account
    differences += _compare("posting", Counter((e.account.code, e.memo, e.player_id, e.amount)
                                               for e in end.entries if e.amount != 0),
                            Counter((cast(LedgerAccount, db.session.get(LedgerAccount, p.account_id)).code,
                                     p.memo, p.player_id, p.amount) for p in recorded_postings))
    top_up = [] if result.pool.top_up == 0 else [(MovementKind.SEED_TOP_UP.value, None, result.pool.top_up)]
    recorded_moves = db.session.scalars(select(PoolMovement).where(
        PoolMovement.round_id == round_id, PoolMovement.kind != MovementKind.CONTRIBUTION.value)).all()
    differences += _compare("pool movement",
                            Counter([(m.kind.value, m.bet_id, m.amount) for m in end.movements] + top_up),
                            Counter((m.kind, m.bet_id, m.amount) for m in recorded_moves))
    bets = {str(bet.player_id): bet for bet in round_row.bets}
    differences += _compare("award",
                            Counter((bets[b.bettor_id].id, a.table, a.hand.slug, a.street, a.share_of, a.amount)
                                    for b in result.bettors for a in b.awards),
                            Counter((a.bet_id, a.prize_table, a.hand, a.street, a.share_of, a.amount) for a in
                                    db.session.scalars(select(AwardRecord).where(AwardRecord.round_id == round_id))))
    differences += [f"bet {bets[b.bettor_id].id}: returned {bets[b.bettor_id].returned} on record, "
                    f"{b.returned} on replay" for b in result.bettors if bets[b.bettor_id].returned != b.returned]
    return ReplayReport(round_id, not differences, differences, settlement_json(result))


# --- the ledger audit -----------------------------------------------------------------------------------

def _unbalanced() -> list[str]:
    total = func.sum(Posting.amount)
    rows = db.session.execute(select(Posting.transaction_id, Posting.currency, total)
                              .group_by(Posting.transaction_id, Posting.currency).having(total != 0)).all()
    problems = [f"transaction {tx}: {currency} postings sum to {format_amount(amount)}, not 0"
                for tx, currency, amount in rows]
    unsealed = db.session.scalars(select(LedgerTransaction.id).where(LedgerTransaction.sealed.is_(False))).all()
    return problems + [f"transaction {tx}: not sealed" for tx in unsealed]


def _balances() -> list[str]:
    sums = dict(db.session.execute(select(Posting.account_id, func.sum(Posting.amount))
                                   .group_by(Posting.account_id)).all())
    problems = []
    for account in db.session.scalars(select(LedgerAccount).order_by(LedgerAccount.id)):
        derived = sums.get(account.id) or ZERO
        if account.balance != derived:
            problems.append(f"account {account.code}: stored balance {format_amount(account.balance)}, "
                            f"postings sum to {format_amount(derived)}")
        if account.kind in NON_NEGATIVE_KINDS and (account.may_go_negative or account.balance < 0):
            problems.append(f"account {account.code}: negative balance {format_amount(account.balance)} "
                            "or allowed to go negative")
    return problems


def _pools() -> list[str]:
    problems = []
    for pool in db.session.scalars(select(JackpotPool).order_by(JackpotPool.id)):
        account = db.session.scalars(select(LedgerAccount).where(LedgerAccount.kind == AccountKind.POOL.value,
                                                                 LedgerAccount.pool_id == pool.id)).first()
        moved: dict[str, Decimal] = {kind.value: ZERO for kind in MovementKind}
        for movement in db.session.scalars(select(PoolMovement).where(PoolMovement.pool_id == pool.id)):
            sign = MOVEMENT_SIGN[MovementKind(movement.kind)]
            if movement.amount == 0 or (sign and (movement.amount > 0) != (sign > 0)):
                problems.append(f"pool {pool.name}: movement {movement.id} ({movement.kind}) has the wrong sign")
            moved[movement.kind] += movement.amount
        derived = sum(moved.values(), ZERO)
        if pool.amount != derived:
            problems.append(f"pool {pool.name}: {format_amount(pool.amount)} but contributions − reversals − prizes "
                            f"+ top-ups ± corrections = {format_amount(derived)}")
        if account is None or account.balance != pool.amount:
            problems.append(f"pool {pool.name}: ledger account does not hold the pool amount")
    return problems


def _rounds_cleared() -> list[str]:
    rows = db.session.execute(
        select(LedgerAccount.code, LedgerAccount.balance).join(GameRound, GameRound.id == LedgerAccount.round_id)
        .where(LedgerAccount.kind == AccountKind.IN_PLAY.value,
               GameRound.phase.in_(FINISHED), LedgerAccount.balance != 0)).all()
    return [f"account {code}: {format_amount(amount)} still in play after the round ended" for code, amount in rows]


@transactional
def audit_ledger() -> list[str]:
    """Every broken invariant, one line each (empty when the ledger is sound): each transaction
    sums to zero per currency and is sealed; stored balances equal their postings; no wallet,
    stake or pool below zero; each pool equals its movements and its ledger account; nothing is
    left in play on a finished round."""
    return _unbalanced() + _balances() + _pools() + _rounds_cleared()
