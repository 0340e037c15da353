"""A round's ledger postings after its bets: the Flop, Turn and River bets as they are made
(R2.3-R2.5), and what a settlement or a void moves, built from the core's
:class:`~casino_holdem.core.rules.Settlement`.

Live settlement, void and replay all build their end-of-round postings here, so replay compares
the stored ledger against exactly what the core's result implies (R3-R6, R9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import UpdateBase, update
from sqlalchemy.orm.attributes import set_committed_value

from ..core.money import ZERO
from ..core.paytable import Paytable
from ..core.rules import ALL_BETS, BettorResult, Settlement, Stake
from ..extensions import db
from ..models import AccountKind, Bet, GameRound, JackpotPool, MovementKind
from .jackpot import Movement, pool_legs
from .wallet import Entry, house_account, in_play_account, lock_accounts, player_wallet, post, read_bettors_accounts

#: R2.3-R2.5: the bet each street's decision adds to
STREET_BET = {"preflop": "flop", "flop": "turn", "turn": "river"}
#: the bets' table: a bet's Flop, Turn or River stake is set by a plain statement sent with its
#: posting (:func:`post_street_bets`), not by the unit of work's flush
BETS = Bet.__table__


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """Everything one settlement or void posts: ledger legs and pool movements."""

    entries: list[Entry]
    movements: list[Movement]


def post_street_bets(stakes: Sequence[tuple[Bet, Stake]], *, also: Sequence[UpdateBase] = ()) -> None:
    """R2.3-R2.5: a Flop (2 × Ante), Turn or River (1 × Ante) bet leaves the wallet when made;
    the amount was reserved when the Ante was placed, so the wallet cannot go negative and is not
    locked and read before it is posted (:func:`.wallet.post`'s ``reserved``). The
    accounts of the bets that moved are read in one query (issue 10: the dealer's automatic
    decisions make many at once); each bet's new stake goes in with its posting, and the caller's
    ``also`` (audit entries) with the first (:func:`.wallet.post`'s ``also``), or alone when no
    bet moved."""
    moved = [(bet, stake) for bet, stake in stakes
             if any(getattr(stake, column) != getattr(bet, column) for column in STREET_BET.values())]
    read_bettors_accounts(bet for bet, _ in moved)
    riders = list(also)
    for bet, stake in moved:
        for column in STREET_BET.values():
            added = getattr(stake, column) - getattr(bet, column)
            if added:
                riders.append(update(BETS).where(BETS.c.id == bet.id).values({column: getattr(stake, column)}))
                post(f"{column}_bet", [
                    Entry(player_wallet(bet.player_id, bet.currency), -added, column, bet.player_id),
                    Entry(in_play_account(bet.round_id, bet.currency), added, column, bet.player_id)],
                    round_id=bet.round_id, reserved=True, also=riders)
                riders = []
                set_committed_value(bet, column, getattr(stake, column))
    for each in riders:
        db.session.execute(each)


def lock_players_side(round_row: GameRound) -> None:
    """Lock the bettors' wallets and the round's in-play accounts before the pool row (the lock
    order of :mod:`.transaction`): a settlement or a void then holds the shared pool only for its
    own postings."""
    read_bettors_accounts(round_row.bets)
    lock_accounts([account for bet in round_row.bets
                   for account in (player_wallet(bet.player_id, bet.currency),
                                   in_play_account(round_row.id, bet.currency))])


def pool_before(pool: JackpotPool, round_row: GameRound) -> Decimal:
    """The pool without this round's contributions: what the core settles against (R5)."""
    return pool.amount - sum((bet.contribution for bet in round_row.bets), ZERO)


def _bettor_entries(result: BettorResult, bet: Bet, held_back: Decimal) -> list[Entry]:
    """Each bet's stake leaves the round's in-play account: what the core returns goes to the
    wallet, the rest to the house (negative when the house pays). ``held_back`` is the part of
    the Progressive stake already in the pool (R5). Progressive awards are paid from the pool."""
    in_play, wallet = in_play_account(bet.round_id, bet.currency), player_wallet(bet.player_id, bet.currency)
    house = house_account(AccountKind.HOUSE, bet.currency)
    awarded = sum((award.amount for award in result.awards), ZERO)
    entries: list[Entry] = []
    for name in ALL_BETS:
        outcome = result.bets[name]
        if outcome.stake == 0:
            continue
        progressive = name == "progressive"
        held = outcome.stake - (held_back if progressive else ZERO)
        returned = outcome.returned - (awarded if progressive else ZERO)
        entries += [Entry(in_play, -held, name, bet.player_id), Entry(wallet, returned, name, bet.player_id),
                    Entry(house, held - returned, name, bet.player_id)]
    return entries


def _by_bettor(round_row: GameRound, settlement: Settlement) -> list[tuple[BettorResult, Bet]]:
    bets = {str(bet.player_id): bet for bet in round_row.bets}
    return [(result, bets[result.bettor_id]) for result in settlement.bettors]


def settled(round_row: GameRound, settlement: Settlement, pool_id: int, paytable: Paytable) -> RoundEnd:
    """R3-R6: stakes out of play, returns to wallets, progressive awards out of the pool (R6:
    converted at the fixed multiplier)."""
    entries: list[Entry] = []
    movements: list[Movement] = []
    for result, bet in _by_bettor(round_row, settlement):
        multiplier = paytable.currency(bet.currency).multiplier
        entries += _bettor_entries(result, bet, bet.contribution * multiplier)
        for award in result.awards:
            entries += pool_legs(pool_id, -award.base_amount, player_wallet(bet.player_id, bet.currency), multiplier,
                                 f"{award.table} award", bet.player_id)
            movements.append(Movement(MovementKind.PRIZE, -award.base_amount, bet.id))
    return RoundEnd(entries, movements)


def voided(round_row: GameRound, settlement: Settlement, pool_id: int, paytable: Paytable) -> RoundEnd:
    """R9: every contribution comes back from the pool into play, then each stake is refunded or
    settled as the core's void says (a fold stands; a Bonus may stand)."""
    entries: list[Entry] = []
    movements: list[Movement] = []
    for result, bet in _by_bettor(round_row, settlement):
        if bet.contribution:
            multiplier = paytable.currency(bet.currency).multiplier
            entries += pool_legs(pool_id, -bet.contribution, in_play_account(bet.round_id, bet.currency), multiplier,
                                 "contribution reversal", bet.player_id)
            movements.append(Movement(MovementKind.CONTRIBUTION_REVERSAL, -bet.contribution, bet.id))
        entries += _bettor_entries(result, bet, ZERO)
    return RoundEnd(entries, movements)
