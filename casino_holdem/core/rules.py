"""Settlement of one round: the main game (R3), the Bonus (R4), the whole round with its
Progressive (R5, R6), and void rounds (R9).

Pure functions of (paytable, cards, stakes, pool): the live services, the scenario CLI, replay
and the simulator's cross-checks all settle through :func:`settle`, so a rule lives here once.

Where each rule lives: R3 :func:`main_result`, :func:`settle_main_bets`; R4 :func:`bonus_line`,
:func:`settle_bonus`; R5 and R6 in :mod:`.progressive` (:func:`~.progressive.progressive_hits`,
:func:`~.progressive.settle_progressive`, :func:`~.progressive.share_prize`, ...); R9
:func:`settle_void`; the whole round :func:`settle`. The records these take and return (stakes,
dealt cards, results, R9's reasons and stages) are defined in :mod:`.settlement` and handed on from
here (:data:`__all__`).

Twins: ``compliance/batch_rules.py`` holds the same rules vectorised with numpy for the simulator
and the exact figures, under the same headings, each function naming its twin here or in
``core/progressive.py``. A rule change edits these files together: this module or
``core/progressive.py`` (R5, R6), ``compliance/batch_rules.py``, and the closed forms of
``compliance/rtp.py`` when it touches the Bonus or the Progressive;
``tests/compliance/test_simulation.py`` holds the twins to each other cent for cent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from .cards import ACE, JACK, KING, QUEEN, TEN, Card
from .errors import RuleViolation
from .evaluator import Category, HandValue, evaluate
from .money import ZERO
from .paytable import Paytable
from .progressive import contribution, progressive_hits, progressive_result, seed_top_up, settle_progressive
from .settlement import (
    ALL_BETS,
    BOARD_SIZE,
    MAIN_BETS,
    STREETS,
    Award,
    BetResult,
    BettorResult,
    DealtCards,
    Outcome,
    PoolResult,
    Result,
    Settlement,
    Stage,
    Stake,
    Void,
    VoidReason,
)

#: the settlement's API, with the records and words its callers need next to it (:mod:`.settlement`)
__all__ = [
    "ALL_BETS", "BOARD_SIZE", "BONUS_LABELS", "MAIN_BETS", "STREETS", "Award", "BetResult", "BettorResult",
    "DealtCards", "Outcome", "PoolResult", "Result", "Settlement", "Stage", "Stake", "Void", "VoidReason",
    "bonus_line", "main_result", "settle", "settle_bonus", "settle_main_bets", "settle_void", "void_out_of_place",
]

#: R4 pay lines, strongest first, with the label players and testers read.
BONUS_LABELS: Mapping[str, str] = {
    "aa_vs_dealer_aa": "AA vs dealer AA",
    "aa": "AA",
    "ak_suited": "AK suited",
    "aq_aj_suited": "AQ/AJ suited",
    "ak_offsuit": "AK offsuit",
    "kk_qq_jj": "KK/QQ/JJ",
    "aq_aj_offsuit": "AQ/AJ offsuit",
    "pair_2_to_10": "pair 2-10",
}


# --- R3: the main game ------------------------------------------------------------------------

def main_result(player: HandValue, dealer: HandValue) -> Result:
    """R3/R7: higher strength wins; equal strength ties. There is no dealer qualifying hand."""
    if player.strength > dealer.strength:
        return Result.PLAYER_WINS
    if player.strength < dealer.strength:
        return Result.DEALER_WINS
    return Result.TIE


def _paid(stake: Decimal, odds: int) -> Decimal:
    """"N to 1": the stake comes back with N × stake."""
    return stake * (odds + 1)


def settle_main_bets(stake: Stake, result: Result, player: Category, paytable: Paytable) -> dict[str, BetResult]:
    """R3: Ante wins only with the qualifier or better (else pushes); Flop/Turn/River win 1:1."""
    if stake.folded:  # R2.3: a fold loses the Ante and makes no later bets
        return {"ante": BetResult(stake.ante, Outcome.LOSE, ZERO),
                **{bet: BetResult(ZERO, Outcome.NONE, ZERO) for bet in STREETS}}
    results: dict[str, BetResult] = {}
    for bet in MAIN_BETS:
        amount = stake.amount(bet)
        if amount == 0:
            results[bet] = BetResult(ZERO, Outcome.NONE, ZERO)
        elif result is Result.DEALER_WINS:
            results[bet] = BetResult(amount, Outcome.LOSE, ZERO)
        elif result is Result.TIE or (bet == "ante" and player < paytable.main.ante_qualifier):
            results[bet] = BetResult(amount, Outcome.PUSH, amount)
        else:
            results[bet] = BetResult(amount, Outcome.WIN, _paid(amount, getattr(paytable.main, bet)))
    return results


# --- R4: the Bonus ----------------------------------------------------------------------------

def bonus_line(player_hole: Sequence[Card], dealer_hole: Sequence[Card] = ()) -> str | None:
    """R4: the pay line of the Player's two hole cards, or None when the Bonus loses.

    AA against AA needs the Dealer's two cards; when they are unknown (R9: a jam before the
    Dealer's cards were dealt) the line is plain AA.
    """
    high, low = sorted((card.rank for card in player_hole), reverse=True)
    suited = player_hole[0].suit == player_hole[1].suit
    if high == low == ACE:
        dealer_aces = len(dealer_hole) == 2 and all(card.rank == ACE for card in dealer_hole)
        return "aa_vs_dealer_aa" if dealer_aces else "aa"
    if high == ACE and low == KING:
        return "ak_suited" if suited else "ak_offsuit"
    if high == ACE and low in (QUEEN, JACK):
        return "aq_aj_suited" if suited else "aq_aj_offsuit"
    if high == low and high in (KING, QUEEN, JACK):
        return "kk_qq_jj"
    if high == low and high <= TEN:
        return "pair_2_to_10"
    return None


def settle_bonus(stake: Stake, cards: DealtCards, paytable: Paytable) -> BetResult:
    """R4: paid on the hole cards whatever the main game's outcome, unless the bettor folded."""
    if stake.bonus == 0:
        return BetResult(ZERO, Outcome.NONE, ZERO)
    line = bonus_line(cards.player, cards.dealer)
    label = BONUS_LABELS[line] if line else None
    if stake.folded or line is None:
        return BetResult(stake.bonus, Outcome.LOSE, ZERO, label)
    return BetResult(stake.bonus, Outcome.WIN, _paid(stake.bonus, paytable.bonus.odds(line)), label)


# --- the whole round --------------------------------------------------------------------------

def settle(paytable: Paytable, cards: DealtCards, stakes: Sequence[Stake], pool_before: Decimal) -> Settlement:
    """Settle a round dealt to the river (R3-R6). ``pool_before`` excludes this round's contributions."""
    if not cards.complete:
        raise RuleViolation("R2.7", "a round is settled only after the river; void it instead (R9)")
    player = evaluate((*cards.player, *cards.board))
    dealer = evaluate((*cards.dealer, *cards.board))
    result = main_result(player, dealer)
    contributions = contribution(stakes, paytable)
    awards, paid = settle_progressive(progressive_hits(cards), stakes, pool_before + contributions, paytable)
    bettors = []
    for stake in stakes:
        bets = settle_main_bets(stake, result, player.category, paytable)
        bets["bonus"] = settle_bonus(stake, cards, paytable)
        mine = tuple(awards.get(stake.bettor_id, ()))
        bets["progressive"] = progressive_result(stake, mine)
        bettors.append(BettorResult(stake.bettor_id, stake.currency, bets, mine))
    after = pool_before + contributions - paid
    by_table: dict[str, Decimal] = {}
    for award in (a for bettor in bettors for a in bettor.awards):
        by_table[award.table] = by_table.get(award.table, ZERO) + award.base_amount
    pool = PoolResult(pool_before, contributions, paid, after, seed_top_up(after, paid > 0, paytable))
    return Settlement(paytable, cards, player, dealer, result, pool, tuple(bettors), None, by_table)


def void_out_of_place(reason: VoidReason, stage: Stage, cards_dealt: int) -> str | None:
    """R9 [reading]: why ``reason`` cannot void a round at ``stage`` with ``cards_dealt`` of its
    cards out, or None when it can. "Card exposed during betting" only while no card of the round
    is dealt (an exposure after the first card is not this incident, and a live round whose
    betting has closed but whose first card is not out is still "during betting"); "dropped card
    seen" only once dealing has begun (during the shuffle or betting a dropped card is used again).
    The back office and the scenario contract ask the same question here."""
    if reason is VoidReason.CARD_EXPOSED_DURING_BETTING and cards_dealt:
        return f"{reason.value} only before the first card is dealt; {cards_dealt} card(s) of the round are out (R9)"
    if reason is VoidReason.DROPPED_CARD_SEEN and stage is Stage.BETTING:
        return f"{reason.value} only once dealing has begun (R9)"
    return None


def settle_void(paytable: Paytable, cards: DealtCards, stakes: Sequence[Stake], pool_before: Decimal,
                void: Void) -> Settlement:
    """R9 [reading]: refund every stake still in play that does not stand, reverse the pool
    contributions. A fold made before the incident stands (Ante and Bonus lost). After a shuffler
    jam that came once the Player's hole cards were dealt, the Bonus stands and is paid."""
    bonus_stands = void.reason is VoidReason.SHUFFLER_JAM and len(cards.player) == 2
    bettors = []
    for stake in stakes:
        bets: dict[str, BetResult] = {}
        for bet in (*MAIN_BETS, "progressive"):
            amount = stake.amount(bet)
            if amount == 0:
                bets[bet] = BetResult(ZERO, Outcome.NONE, ZERO)
            elif stake.folded and bet == "ante":
                bets[bet] = BetResult(amount, Outcome.LOSE, ZERO)
            else:
                bets[bet] = BetResult(amount, Outcome.VOID, amount)
        if bonus_stands or stake.folded:
            bets["bonus"] = settle_bonus(stake, cards, paytable)
        else:
            bets["bonus"] = (BetResult(stake.bonus, Outcome.VOID, stake.bonus) if stake.bonus
                             else BetResult(ZERO, Outcome.NONE, ZERO))
        bettors.append(BettorResult(stake.bettor_id, stake.currency, {b: bets[b] for b in ALL_BETS}))
    pool = PoolResult(pool_before, ZERO, ZERO, pool_before)
    player = evaluate((*cards.player, *cards.board)) if len(cards.player) == 2 and len(cards.board) >= 3 else None
    dealer = evaluate((*cards.dealer, *cards.board)) if len(cards.dealer) == 2 and len(cards.board) >= 3 else None
    return Settlement(paytable, cards, player, dealer, Result.VOID, pool, tuple(bettors), void)
