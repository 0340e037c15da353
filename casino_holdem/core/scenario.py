"""The compliance scenario contract (``casino-holdem scenario``) on top of :mod:`.round` and :mod:`.rules`.

A scenario is played through the same :class:`~.round.Round` state machine as a live table —
bets placed, hole cards dealt, decisions taken street by street, R8 defaults for timeouts — so a
decision the rules do not allow is refused here exactly as it would be at a table. Every problem
is a :class:`~.errors.ScenarioError` whose message starts with the field at fault.

Pure: the caller reads files. :func:`play` takes the paytable already resolved, or a
:data:`PaytableResolver` that turns the scenario's own ``paytable`` entry into one.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from .cards import FULL_DECK, Card, ensure_distinct, format_cards, parse_cards
from .errors import InvalidAmount, InvalidBet, InvalidCard, InvalidPaytable, RuleViolation
from .errors import ScenarioError as ScenarioError  # its home is errors.py; importable from here too
from .evaluator import HandValue
from .money import POOL_QUANTUM, format_amount, format_pool, is_multiple_of, parse_amount
from .paytable import Paytable
from .phases import (
    BOARD_POSITIONS,
    DEALER_POSITIONS,
    DECISION_PHASES,
    PHASES,
    PLAY_ORDER,
    PLAYER_POSITIONS,
    AutoReason,
    DealStep,
    Phase,
    Receiver,
    dealt_before,
)
from .round import Limits, Round, Timers
from .rules import ALL_BETS, DealtCards, Settlement, Stage, VoidReason, void_out_of_place

#: a fixed clock: scenario rounds are timeless, decisions are given
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
TOP_KEYS = {"name", "description", "paytable", "pool", "cards", "deck", "bettors", "void", "limits", "expected"}
BETTOR_KEYS = {"id", "currency", "ante", "bonus", "progressive", "decisions"}
#: the decisions a scenario may give per street, by their JSON names (R2.3-R2.5)
DECISIONS = {street: {action.value: action for action in rules.allowed} for street, rules in DECISION_PHASES.items()}
AUTOMATIC = {"timeout": AutoReason.TIMEOUT, "disconnect": AutoReason.DISCONNECT}
#: R9: with a void at this stage, the decisions of these streets were due before it (their phase came earlier)
DUE_BEFORE = {stage: tuple(street for street, rules in DECISION_PHASES.items()
                           if list(Stage).index(rules.stage) < list(Stage).index(stage)) for stage in Stage}


def _count(steps: Sequence[DealStep], receiver: Receiver) -> int:
    return sum(1 for step in steps if step.receiver is receiver)


#: R9: how many board cards may have been dealt when an incident happens at each stage: those dealt
#: before its phase, up to those its phase deals too
BOARD_AT_STAGE = {rules.stage: (_count(dealt_before(rules.phase), Receiver.BOARD),
                                _count((*dealt_before(rules.phase), *rules.deals_on_entry), Receiver.BOARD))
                  for rules in PLAY_ORDER}
#: R9: the fewest cards of the round out during each stage (a scenario with a whole deck gives no
#: partial deal to count)
DEALT_AT_LEAST = {rules.stage: len(dealt_before(rules.phase)) for rules in PLAY_ORDER}
_HOLE_STEPS = PHASES[Phase.PRE_FLOP].deals_on_entry
#: R1: the (Player, Dealer) hole cards after each step of the hole-card deal: P, D, P, D
HOLE_DEAL_ORDER = tuple((_count(_HOLE_STEPS[:k], Receiver.PLAYER), _count(_HOLE_STEPS[:k], Receiver.DEALER))
                        for k in range(len(_HOLE_STEPS) + 1))
#: turns a scenario's ``paytable`` entry (None when it has none) into a paytable; raises
#: :class:`~.errors.InvalidPaytable` when it cannot
PaytableResolver = Callable[[str | None], Paytable]

def paytable_reference(data: object) -> str | None:
    """The scenario's ``paytable`` entry (a path or an id such as ``standard@1``), if any."""
    if isinstance(data, Mapping):
        reference = data.get("paytable")
        if reference is not None and not isinstance(reference, str):
            raise ScenarioError("paytable", "must be a string (a file path or an id such as \"standard\")")
        return reference
    return None


def _amount(value: object, field: str, *, allow_zero: bool = True) -> Decimal:
    try:
        amount = parse_amount(value, field=field)
    except InvalidAmount as error:
        raise ScenarioError(field, error.problem) from None
    if amount < 0 or (amount == 0 and not allow_zero):
        raise ScenarioError(field, f"{format_amount(amount)} must be positive")
    return amount


def _cards(raw: object, field: str) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise ScenarioError(field, "must be a list of cards such as [\"As\", \"Kd\"]")
    try:
        return parse_cards(raw, what=field)
    except InvalidCard as error:
        raise ScenarioError(error.field or field, error.problem, rule=error.rule) from None


def _void(raw: object) -> tuple[VoidReason, Stage] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ScenarioError("void", "must be null or an object {\"reason\": …, \"stage\": …}")
    unknown = set(raw) - {"reason", "stage"}
    if unknown:
        raise ScenarioError(f"void.{sorted(unknown)[0]}", "unknown key")
    for key in ("reason", "stage"):
        if key not in raw:
            raise ScenarioError(f"void.{key}", "missing")
    try:
        reason = VoidReason(raw["reason"])
    except ValueError:
        raise ScenarioError("void.reason", f"{raw.get('reason')!r} must be one of "
                            f"{', '.join(r.value for r in VoidReason)}") from None
    try:
        stage = Stage(raw["stage"])
    except ValueError:
        raise ScenarioError("void.stage", f"{raw.get('stage')!r} must be one of "
                            f"{', '.join(s.value for s in Stage)}") from None
    return reason, stage


def _dealt_cards(data: Mapping[str, Any], void_stage: Stage | None) -> tuple[tuple[Card, ...], DealtCards | None]:
    """R1: the deck to deal from, and for a void the cards dealt so far when they were given."""
    if ("cards" in data) == ("deck" in data):
        raise ScenarioError("cards", "give either \"cards\" (player, dealer, board) or a 52-card \"deck\"")
    if "deck" in data:
        deck = _cards(data["deck"], "deck")
        if len(deck) != 52:
            raise ScenarioError("deck", f"{len(deck)} cards, a deck has 52")
        return deck, None
    cards = data["cards"]
    if not isinstance(cards, Mapping):
        raise ScenarioError("cards", "must be an object with player, dealer and board")
    unknown = set(cards) - {"player", "dealer", "board"}
    if unknown:
        raise ScenarioError(f"cards.{sorted(unknown)[0]}", "unknown key")
    parts = {name: _cards(cards.get(name, []), f"cards.{name}") for name in ("player", "dealer", "board")}
    try:
        ensure_distinct([*parts["player"], *parts["dealer"], *parts["board"]], what="cards")
    except InvalidCard as error:
        raise ScenarioError(error.field or "cards", error.problem, rule=error.rule) from None
    player, dealer, board = parts["player"], parts["dealer"], parts["board"]
    if void_stage is None:
        for name, need in (("player", 2), ("dealer", 2), ("board", 5)):
            if len(parts[name]) != need:
                raise ScenarioError(f"cards.{name}", f"{len(parts[name])} cards, the round needs {need}")
    else:
        low, high = BOARD_AT_STAGE[void_stage]
        holes = (len(player), len(dealer))
        if void_stage is Stage.BETTING and (player or dealer):
            raise ScenarioError("cards.player", "no card is dealt during betting (void stage betting)")
        if void_stage is not Stage.BETTING and void_stage is not Stage.HOLE_CARDS and holes != (2, 2):
            raise ScenarioError("cards.player",
                                f"at stage {void_stage.value} both hole cards of Player and Dealer were dealt")
        if void_stage is Stage.HOLE_CARDS and holes not in HOLE_DEAL_ORDER:
            raise ScenarioError("cards.dealer", f"{len(player)} Player and {len(dealer)} Dealer cards do not "
                                "follow the dealing order of R1 (Player, Dealer, Player, Dealer)")
        if not low <= len(board) <= high:
            raise ScenarioError("cards.board",
                                f"{len(board)} cards; at stage {void_stage.value} the board has {low} to {high}")
    placed: dict[int, Card] = {}
    for positions, given in ((PLAYER_POSITIONS, player), (DEALER_POSITIONS, dealer), (BOARD_POSITIONS, board)):
        placed.update(zip(positions, given, strict=False))  # a partial deal fills the first positions
    rest = iter(card for card in FULL_DECK if card not in placed.values())
    deck = tuple(placed[i] if i in placed else next(rest) for i in range(52))
    return deck, (DealtCards(player, dealer, board) if void_stage is not None else None)


def _limits(raw: object) -> Limits:
    if raw is None:
        return Limits()
    if not isinstance(raw, Mapping):
        raise ScenarioError("limits", "must be an object such as {\"ante\": [\"1\", \"500\"]}")
    bounds: dict[str, tuple[Decimal | None, Decimal | None]] = {"ante": (None, None), "bonus": (None, None)}
    for bet, pair in raw.items():
        if bet not in ("ante", "bonus"):
            raise ScenarioError(f"limits.{bet}", "unknown key (ante, bonus)")
        if not isinstance(pair, list) or len(pair) != 2:
            raise ScenarioError(f"limits.{bet}", "must be [min, max] as decimal strings")
        low = _amount(pair[0], f"limits.{bet}[0]", allow_zero=False)
        high = _amount(pair[1], f"limits.{bet}[1]", allow_zero=False)
        if low > high:
            raise ScenarioError(f"limits.{bet}", f"min {low} is above max {high}")
        bounds[bet] = low, high
    return Limits(ante_min=bounds["ante"][0], ante_max=bounds["ante"][1],
                  bonus_min=bounds["bonus"][0], bonus_max=bounds["bonus"][1])


def _bettors(raw: object) -> list[Mapping[str, Any]]:
    if not isinstance(raw, list) or not raw:
        raise ScenarioError("bettors", "must be a non-empty list")
    seen: set[str] = set()
    for i, bettor in enumerate(raw):
        if not isinstance(bettor, Mapping):
            raise ScenarioError(f"bettors[{i}]", "must be an object")
        unknown = set(bettor) - BETTOR_KEYS
        if unknown:
            raise ScenarioError(f"bettors[{i}].{sorted(unknown)[0]}", "unknown key")
        identifier = bettor.get("id")
        if not isinstance(identifier, str) or not identifier:
            raise ScenarioError(f"bettors[{i}].id", "must be a non-empty string")
        if identifier in seen:
            raise ScenarioError(f"bettors[{i}].id", f"duplicate id {identifier!r}")
        seen.add(identifier)
        if not isinstance(bettor.get("currency"), str):
            raise ScenarioError(f"bettors[{i}].currency", "must be a currency code such as \"USD\"")
        if "ante" not in bettor:
            raise ScenarioError(f"bettors[{i}].ante", "missing (R2.1: the Ante is required to play)")
        if not isinstance(bettor.get("progressive", False), bool):
            raise ScenarioError(f"bettors[{i}].progressive", "must be true or false")
        decisions = bettor.get("decisions", {})
        if not isinstance(decisions, Mapping):
            raise ScenarioError(f"bettors[{i}].decisions", "must be an object")
        for street, choice in decisions.items():
            if street not in DECISIONS:
                raise ScenarioError(f"bettors[{i}].decisions.{street}", f"unknown street ({', '.join(DECISIONS)})")
            if not isinstance(choice, str) or (choice not in DECISIONS[street] and choice not in AUTOMATIC):
                allowed = ", ".join([*DECISIONS[street], *AUTOMATIC])
                raise ScenarioError(f"bettors[{i}].decisions.{street}", f"{choice!r} must be one of {allowed}")
    return raw


def _decide(round_: Round, street: str, bettors: Sequence[Mapping[str, Any]]) -> None:
    """Apply one street's decisions; a missing one where one is due counts as a timeout (R8)."""
    for i, bettor in enumerate(bettors):
        choice = bettor.get("decisions", {}).get(street)
        field = f"bettors[{i}].decisions.{street}"
        try:
            if choice is None:
                if not round_.bettors[bettor["id"]].folded:
                    round_.decide_automatically(bettor["id"], AutoReason.TIMEOUT, now=EPOCH)
            elif choice in AUTOMATIC:
                round_.decide_automatically(bettor["id"], AUTOMATIC[choice], now=EPOCH)
            else:
                round_.act(bettor["id"], DECISIONS[street][choice], now=EPOCH)
        except RuleViolation as error:
            raise ScenarioError(field, str(error), rule=error.rule) from None


def _paytable(data: object, paytable: Paytable | PaytableResolver) -> Paytable:
    if isinstance(paytable, Paytable):
        return paytable
    try:
        return paytable(paytable_reference(data))
    except InvalidPaytable as error:
        raise ScenarioError("paytable", str(error)) from None


def play(data: object, paytable: Paytable | PaytableResolver) -> Settlement:
    """Play a scenario through the round state machine and settle it (or void it, R9), under
    ``paytable``, or under the paytable ``paytable(reference)`` resolves the scenario's
    ``paytable`` entry to (its problems come first, as ``paytable: …``)."""
    resolved = _paytable(data, paytable)
    if not isinstance(data, Mapping):
        raise ScenarioError("scenario", "must be a JSON object")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise ScenarioError(sorted(unknown)[0], "unknown key")
    if "pool" not in data:
        raise ScenarioError("pool", "missing (the jackpot pool in base units before this round)")
    pool = _amount(data["pool"], "pool")
    if not is_multiple_of(pool, POOL_QUANTUM):
        raise ScenarioError("pool", f"{data['pool']} has more than 5 decimal places (R6)")
    void = _void(data.get("void"))
    stage = void[1] if void else None
    deck, partial = _dealt_cards(data, stage)
    if void is not None:
        refused = void_out_of_place(*void, partial.count if partial else DEALT_AT_LEAST[void[1]])
        if refused:
            raise ScenarioError("void.reason", refused, rule="R9")
    bettors = _bettors(data.get("bettors"))
    round_ = Round.open(resolved, deck, _limits(data.get("limits")), Timers(), EPOCH - Timers().betting)
    for i, bettor in enumerate(bettors):
        ante = _amount(bettor["ante"], f"bettors[{i}].ante", allow_zero=False)
        bonus = _amount(bettor.get("bonus", "0"), f"bettors[{i}].bonus")
        try:
            round_.place_bets(bettor["id"], bettor["currency"], ante, bonus,
                              bettor.get("progressive", False), now=EPOCH - Timers().betting)
        except InvalidBet as error:
            raise ScenarioError(f"bettors[{i}].{error.field}", str(error), rule=error.rule) from None
    due = DUE_BEFORE[stage] if stage is not None else tuple(DECISIONS)
    for i, bettor in enumerate(bettors):
        late = [street for street in bettor.get("decisions", {}) if street not in due]
        if late:
            raise ScenarioError(f"bettors[{i}].decisions.{late[0]}", f"not due before the void at stage {stage}")
    if stage is not Stage.BETTING:
        round_.advance(EPOCH)  # R2.2: the hole cards
    for street in due:
        _decide(round_, street, bettors)
        round_.advance(EPOCH)
    if void is not None:
        return round_.void(void[0], pool, stage, partial)
    return round_.settle(pool)


# --- output (docs/scenarios.md "Output") ------------------------------------------------------

def _hand(hand: HandValue | None) -> dict[str, Any] | None:
    if hand is None:
        return None
    return {"category": hand.category.slug, "best_five": format_cards(hand.best_five), "strength": hand.strength}


def settlement_json(settlement: Settlement) -> dict[str, Any]:
    """The settlement as the public JSON of docs/scenarios.md "Output": amounts as exact decimal strings."""
    bettors = []
    for bettor in settlement.bettors:
        bets: dict[str, Any] = {}
        for name in ALL_BETS:
            result = bettor.bets[name]
            entry: dict[str, Any] = {"stake": format_amount(result.stake), "outcome": result.outcome.value,
                                     "returned": format_amount(result.returned)}
            if name == "bonus" and result.stake > 0:
                entry["category"] = result.category
            if name == "progressive" and result.stake > 0:
                entry["awards"] = [{"table": a.table, "hand": a.hand.slug, "street": a.street,
                                    "share_of": a.share_of, "amount": format_amount(a.amount)}
                                   for a in bettor.awards]
            bets[name] = entry
        bettors.append({"id": bettor.bettor_id, "currency": bettor.currency, "bets": bets,
                        "staked": format_amount(bettor.staked), "returned": format_amount(bettor.returned),
                        "net": format_amount(bettor.net)})
    pool = settlement.pool
    output: dict[str, Any] = {
        "paytable": settlement.paytable.describe(),
        "player_hand": _hand(settlement.player_hand),
        "dealer_hand": _hand(settlement.dealer_hand),
        "result": settlement.result.value,
        "pool": {"before": format_pool(pool.before), "contributions": format_pool(pool.contributions),
                 "paid": format_pool(pool.paid), "after": format_pool(pool.after),
                 "top_up": format_pool(pool.top_up)},
        "bettors": bettors,
    }
    if settlement.void is not None:
        output["void"] = {"reason": settlement.void.reason.value, "stage": settlement.void.stage.value}
    return output


# --- check (docs/scenarios.md "Check") --------------------------------------------------------

def _same(expected: object, got: object) -> bool:
    if isinstance(expected, str) and isinstance(got, str):
        try:
            return Decimal(expected) == Decimal(got)
        except ArithmeticError:
            return expected == got
    return expected == got


def compare(expected: object, got: object, path: str = "") -> list[str]:
    """Differences between an ``expected`` subset and the output: ``path expected X got Y``.
    Lists of objects with an ``id`` are matched by id (an empty list expects an empty one);
    decimal strings compare by value; ``null`` expects the key to be null or absent (the output
    has a ``void`` only for a void round)."""
    if isinstance(expected, Mapping):
        if not isinstance(got, Mapping):
            return [f"{path or '.'} expected an object got {_show(got)}"]
        problems = []
        for key, value in expected.items():
            where = f"{path}.{key}" if path else str(key)
            if key in got:
                problems.extend(compare(value, got[key], where))
            elif value is not None:
                problems.append(f"{where} expected {_show(value)} got nothing")
        return problems
    if isinstance(expected, list) and isinstance(got, list):
        if expected and all(isinstance(item, Mapping) and "id" in item for item in expected):
            by_id = {item.get("id"): item for item in got if isinstance(item, Mapping)}
            problems = []
            for item in expected:
                where = f"{path}[{item['id']}]"
                problems.extend(compare(item, by_id[item["id"]], where) if item["id"] in by_id
                                else [f"{where} expected {_show(item)} got nothing"])
            return problems
        if len(expected) != len(got):
            return [f"{path} expected {_show(expected)} got {_show(got)}"]
        return [p for i, (e, g) in enumerate(zip(expected, got, strict=True)) for p in compare(e, g, f"{path}[{i}]")]
    return [] if _same(expected, got) else [f"{path} expected {_show(expected)} got {_show(got)}"]


def _show(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
