"""The Progressive bet (R5) and its prizes shared in every bettor's currency (R6): which prize
tables a round's cards qualify for, the shares, the pool's contributions and its seed.

Pure functions of (paytable, cards, stakes, pool), called by :func:`.rules.settle` for every
settled round. Where each rule lives: R5 :func:`progressive_hits` (P1: :func:`royal_street`),
:func:`settle_progressive`, :func:`contribution`, :func:`seed_top_up`; R6 :func:`share_prize`
(rounding down: :func:`.money.round_down`); the prize tables :data:`.paytable.P2_HANDS` and
:data:`.paytable.P3_HANDS`.

Twins: ``compliance/batch_rules.py`` holds these rules vectorised with numpy under the same R5 and
R5/R6 headings, each function naming its twin here; :mod:`.rules` says which files change together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from .cards import Card
from .evaluator import Category, category_of, strength_of
from .money import ZERO, exact_div, round_down
from .paytable import P2_HANDS, P3_HANDS, CurrencySpec, Paytable
from .settlement import BOARD_SIZE, Award, BetResult, DealtCards, Outcome, Stake

# --- R5: which progressive tables a round qualifies for ----------------------------------------

@dataclass(frozen=True, slots=True)
class ProgressiveHits:
    """Which progressive tables the round's cards qualify for (R5), before sharing and money."""

    p1_street: str | None = None                   # the street the Royal Flush was first made on
    p2: Category | None = None                     # Straight Flush or Four of a Kind, 7 cards
    p3: Category | None = None                     # Royal, Straight Flush or Quads on the board


def category(cards: Sequence[Card]) -> Category:
    """The R7 category of the best five (without building them: this runs on every round)."""
    return category_of(strength_of(cards))


def royal_street(player: Sequence[Card], board: Sequence[Card]) -> str | None:
    """R5 P1: the street where the Player's Royal Flush (using a hole card) first appears."""
    for street, visible in BOARD_SIZE.items():
        if category((*player, *board[:visible])) is Category.ROYAL_FLUSH:
            # On the river, a Royal Flush on the board alone is P3's (it uses no hole card).
            if street == "river" and category(board) is Category.ROYAL_FLUSH:
                return None
            return street
    return None


def progressive_hits(cards: DealtCards) -> ProgressiveHits:
    """R5: P1 by street, P3 on the board alone, P2 on seven cards unless the board takes it."""
    board_category = category(cards.board)
    p3 = board_category if board_category in P3_HANDS else None
    p1_street = royal_street(cards.player, cards.board)
    seven = category((*cards.player, *cards.board))
    # R5 "no double payment" [reading]: when the board pays P3, P2 does not pay.
    p2 = seven if seven in P2_HANDS and p3 is None else None
    return ProgressiveHits(p1_street=p1_street, p2=p2, p3=p3)


# --- R5/R6: sharing the prizes and the pool ---------------------------------------------------

def share_prize(prize: Decimal, winners: Sequence[Stake], currencies: Mapping[str, CurrencySpec],
                table: str, hand: Category, street: str | None) -> tuple[dict[str, Award], Decimal]:
    """R5/R6: share ``prize`` (base units) equally; each share is paid in the bettor's currency
    (× multiplier) rounded down to its unit. Returns the awards and the base units they cost,
    so rounding remainders stay in the pool and nothing is created or lost."""
    awards: dict[str, Award] = {}
    paid = ZERO
    for winner in winners:
        spec = currencies[winner.currency]
        amount = round_down(exact_div(prize * spec.multiplier, len(winners)), spec.unit)
        base = exact_div(amount, spec.multiplier)
        awards[winner.bettor_id] = Award(table, hand, street, len(winners), amount, base)
        paid += base
    return awards, paid


def settle_progressive(hits: ProgressiveHits, stakes: Sequence[Stake], pool: Decimal,
                       paytable: Paytable) -> tuple[dict[str, list[Award]], Decimal]:
    """R5: pay P1 (a share of ``pool``, which already holds this round's contributions) first,
    then the one fixed prize (P3, else P2) from what remains, capped at the whole remaining pool.
    Returns each bettor's awards and the base units paid out of the pool."""
    rules = paytable.progressive
    bettors = [stake for stake in stakes if stake.progressive > 0]
    flop_bettors = [stake for stake in bettors if stake.made_flop_bet]
    awards: dict[str, list[Award]] = {stake.bettor_id: [] for stake in bettors}
    remaining = pool

    def pay(prize: Decimal, winners: list[Stake], table: str, hand: Category, street: str | None) -> None:
        nonlocal remaining
        if not winners or prize <= 0:
            return
        shares, cost = share_prize(min(prize, remaining), winners, paytable.currencies, table, hand, street)
        for bettor_id, award in shares.items():
            awards[bettor_id].append(award)
        remaining -= cost

    if hits.p1_street:
        pay(pool * rules.p1_share(hits.p1_street), flop_bettors, "P1", Category.ROYAL_FLUSH, hits.p1_street)
    if hits.p3 is not None:  # R5: P3 is shared by every Progressive bettor, folded or not
        pay(rules.p3_prize(hits.p3) or ZERO, bettors, "P3", hits.p3, None)
    elif hits.p2 is not None:  # R5: P2 needs the Progressive and the Flop bet
        pay(rules.p2_prize(hits.p2) or ZERO, flop_bettors, "P2", hits.p2, None)
    return awards, pool - remaining


def contribution(stakes: Sequence[Stake], paytable: Paytable) -> Decimal:
    """R5/R6: each Progressive bet, whatever its currency, puts ``contribution`` × 1 base unit in."""
    return paytable.progressive.contribution * sum(1 for stake in stakes if stake.progressive > 0)


def seed_top_up(pool_after: Decimal, prize_paid: bool, paytable: Paytable) -> Decimal:
    """R5 [reading]: after a hit the house refills the pool up to its seed; the top-up is recorded."""
    if not prize_paid or pool_after >= paytable.progressive.seed:
        return ZERO
    return paytable.progressive.seed - pool_after


def progressive_result(stake: Stake, awards: Sequence[Award]) -> BetResult:
    """R5: the Progressive bet wins what its awards pay, and loses without one."""
    if stake.progressive == 0:
        return BetResult(ZERO, Outcome.NONE, ZERO)
    won = sum((award.amount for award in awards), ZERO)
    return BetResult(stake.progressive, Outcome.WIN if won > 0 else Outcome.LOSE, won)
