"""Settlement of one round: the main game (R3), the Bonus (R4), the Progressive P1/P2/P3 (R5),
currencies and rounding (R6) and void rounds (R9).

Pure functions of (paytable, cards, stakes, pool): the live services, the scenario CLI, replay
and the simulator's cross-checks all settle through :func:`settle`, so a rule lives here once.

Where each rule lives: R3 :func:`main_result`, :func:`settle_main_bets`; R4 :func:`bonus_line`,
:func:`settle_bonus`; R5 :func:`progressive_hits` (P1: :func:`royal_street`),
:func:`settle_progressive`, :func:`contribution`, :func:`seed_top_up`; R6 :func:`share_prize`
(rounding down: :func:`.money.round_down`); R9 :func:`settle_void`; the whole round :func:`settle`.

Twins: ``compliance/batch_rules.py`` holds the same rules vectorised with numpy for the simulator
and the exact figures, under the same headings, each function naming its twin here. A rule change
edits both files together (and the closed forms of ``compliance/rtp.py`` when it touches the Bonus
or the Progressive); ``tests/compliance/test_simulation.py`` holds the twins to each other cent
for cent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from .cards import ACE, JACK, KING, QUEEN, TEN, Card
from .errors import RuleViolation
from .evaluator import Category, HandValue, category_of, evaluate, strength_of
from .money import ZERO, exact_div, round_down
from .paytable import P2_HANDS, P3_HANDS, CurrencySpec, Paytable

MAIN_BETS = ("ante", "flop", "turn", "river")
ALL_BETS = (*MAIN_BETS, "bonus", "progressive")
STREETS = ("flop", "turn", "river")
#: R2.4-R2.6: how many board cards there are once each street is dealt
BOARD_SIZE: Mapping[str, int] = {"flop": 3, "turn": 4, "river": 5}


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    VOID = "void"
    NONE = "none"


class Result(StrEnum):
    PLAYER_WINS = "player_wins"
    DEALER_WINS = "dealer_wins"
    TIE = "tie"
    VOID = "void"


class VoidReason(StrEnum):
    """R9: the incidents that void a round."""

    CARD_EXPOSED_DURING_BETTING = "card_exposed_during_betting"
    DROPPED_CARD_SEEN = "dropped_card_seen"
    MISDEAL = "misdeal"
    SHUFFLER_JAM = "shuffler_jam"
    OPERATOR = "operator"


class Stage(StrEnum):
    """R9: the step of the round during which an incident happened."""

    BETTING = "betting"
    HOLE_CARDS = "hole_cards"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


@dataclass(frozen=True, slots=True)
class Void:
    reason: VoidReason
    stage: Stage


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


@dataclass(frozen=True, slots=True)
class DealtCards:
    """The cards of a round as far as they were dealt (R1): Player, Dealer, board in dealing order."""

    player: tuple[Card, ...] = ()
    dealer: tuple[Card, ...] = ()
    board: tuple[Card, ...] = ()

    @property
    def complete(self) -> bool:
        return len(self.player) == 2 and len(self.dealer) == 2 and len(self.board) == 5


@dataclass(frozen=True, slots=True)
class Stake:
    """One bettor's wagers as they stand when the round ends (R2), in the bettor's currency.

    ``progressive`` is the stake of the fixed Progressive bet (the currency's multiplier, R6) or
    zero; ``flop``/``turn``/``river`` are zero when not made; ``folded`` marks a pre-flop fold.
    """

    bettor_id: str
    currency: str
    ante: Decimal
    bonus: Decimal = ZERO
    progressive: Decimal = ZERO
    flop: Decimal = ZERO
    turn: Decimal = ZERO
    river: Decimal = ZERO
    folded: bool = False

    def amount(self, bet: str) -> Decimal:
        return Decimal(getattr(self, bet))

    @property
    def staked(self) -> Decimal:
        return sum((self.amount(bet) for bet in ALL_BETS), ZERO)

    @property
    def made_flop_bet(self) -> bool:
        """R5: P1 and P2 go to Progressive bettors who made the Flop bet."""
        return not self.folded and self.flop > 0


@dataclass(frozen=True, slots=True)
class BetResult:
    stake: Decimal
    outcome: Outcome
    returned: Decimal
    category: str | None = None


@dataclass(frozen=True, slots=True)
class Award:
    """One bettor's share of one progressive prize (R5), ``amount`` in the bettor's currency (R6)."""

    table: str
    hand: Category
    street: str | None
    share_of: int
    amount: Decimal
    base_amount: Decimal


@dataclass(frozen=True, slots=True)
class BettorResult:
    bettor_id: str
    currency: str
    bets: Mapping[str, BetResult]
    awards: tuple[Award, ...] = ()

    @property
    def staked(self) -> Decimal:
        return sum((bet.stake for bet in self.bets.values()), ZERO)

    @property
    def returned(self) -> Decimal:
        return sum((bet.returned for bet in self.bets.values()), ZERO)

    @property
    def net(self) -> Decimal:
        return self.returned - self.staked


@dataclass(frozen=True, slots=True)
class PoolResult:
    """Base units. ``after == before + contributions - paid`` exactly; ``top_up`` is the house's
    seed refill (R5) applied after the round, outside that equation."""

    before: Decimal
    contributions: Decimal
    paid: Decimal
    after: Decimal
    top_up: Decimal = ZERO


@dataclass(frozen=True, slots=True)
class Settlement:
    paytable: Paytable
    cards: DealtCards
    player_hand: HandValue | None
    dealer_hand: HandValue | None
    result: Result
    pool: PoolResult
    bettors: tuple[BettorResult, ...]
    void: Void | None = None
    awards_by_table: Mapping[str, Decimal] = field(default_factory=dict)


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


def _progressive_result(stake: Stake, awards: Sequence[Award]) -> BetResult:
    if stake.progressive == 0:
        return BetResult(ZERO, Outcome.NONE, ZERO)
    won = sum((award.amount for award in awards), ZERO)
    return BetResult(stake.progressive, Outcome.WIN if won > 0 else Outcome.LOSE, won)


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
        bets["progressive"] = _progressive_result(stake, mine)
        bettors.append(BettorResult(stake.bettor_id, stake.currency, bets, mine))
    after = pool_before + contributions - paid
    by_table: dict[str, Decimal] = {}
    for award in (a for bettor in bettors for a in bettor.awards):
        by_table[award.table] = by_table.get(award.table, ZERO) + award.base_amount
    pool = PoolResult(pool_before, contributions, paid, after, seed_top_up(after, paid > 0, paytable))
    return Settlement(paytable, cards, player, dealer, result, pool, tuple(bettors), None, by_table)


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
