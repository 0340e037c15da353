"""R9: the incidents a live dealer or pit supervisor reports, as data, and what each one does.

Every incident is recorded, whether or not it voids the round; the house's own voids
(:func:`needs_house`) are a pit supervisor's to call, the rest a dealer's. :func:`rule` decides, from the
round as it stands, what R9 says happens (its :class:`Ruling`); it changes nothing. The services
record the ruling and apply it (a void goes through the one void path, the rest leave the round
to go on). [reading] "During betting" is from the end of the shuffle until the first card of the
round is dealt; "after the game has started" is from that first card on.

==========================  ===========================================  =================================
incident                    when it can be reported                      what R9 says happens
==========================  ===========================================  =================================
exposed_while_shuffling     before the first card                        re-shuffle, bets unaffected
card_exposed                before the first card / after it             void / recorded, the round goes on
dropped_in_shuffle          before the first card                        used again
dropped_on_burn             a burn card being dealt                      used again
dropped_face_unseen         once betting has closed                      used again
dropped_face_seen           once betting has closed                      void ``dropped_card_seen``, deck restored
dropped_in_view             any time in play                             no effect (recorded)
misdeal                     the card just dealt / an earlier one         corrected / the house may void
shuffler_jam                any time in play                             void (Bonus stands once the hole cards are out)
other_error                 any time in play                             operator void
==========================  ===========================================  =================================
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card
from .errors import RuleViolation
from .live import read_code
from .phases import DEALING_ORDER, FINISHED, Phase
from .round import Round
from .rules import Stage, VoidReason


class IncidentKind(StrEnum):
    EXPOSED_WHILE_SHUFFLING = "exposed_while_shuffling"
    CARD_EXPOSED = "card_exposed"
    DROPPED_IN_SHUFFLE = "dropped_in_shuffle"
    DROPPED_ON_BURN = "dropped_on_burn"
    DROPPED_FACE_UNSEEN = "dropped_face_unseen"
    DROPPED_FACE_SEEN = "dropped_face_seen"
    DROPPED_IN_VIEW = "dropped_in_view"
    MISDEAL = "misdeal"
    SHUFFLER_JAM = "shuffler_jam"
    OTHER_ERROR = "other_error"


class Effect(StrEnum):
    """What an incident does to the round (R9)."""

    VOID = "void"
    RESHUFFLE = "reshuffle"
    USED_AGAIN = "used_again"
    CORRECTED = "corrected"
    RECORDED = "recorded"


#: the short notice players see for an incident that does not void the round (R9)
NOTICES: dict[Effect, str] = {
    Effect.RESHUFFLE: "A card was exposed while shuffling: the deck is re-shuffled, bets are not affected.",
    Effect.USED_AGAIN: "A card was dropped and is used again; the round goes on.",
    Effect.CORRECTED: "A card dealt to the wrong position was taken back and dealt correctly.",
    Effect.RECORDED: "A dealing incident was recorded; it has no effect on the round.",
}


@dataclass(frozen=True, slots=True)
class Report:
    """What the dealer reports: the incident, the card concerned (when one is), the position a
    misdealt card went to, and whether the house voids a misdeal caught too late."""

    kind: IncidentKind
    card: Card | str | None = None
    wrong_position: int | None = None
    house_voids: bool = False


@dataclass(frozen=True, slots=True)
class Ruling:
    """What R9 says the reported incident does. ``void_reason`` is set when ``effect`` is a void;
    ``corrected_to`` is the position a misdealt card was dealt to again."""

    kind: IncidentKind
    effect: Effect
    stage: Stage
    card: Card | None = None
    void_reason: VoidReason | None = None
    wrong_position: int | None = None
    corrected_to: int | None = None
    deck_restored: bool = False

    @property
    def notice(self) -> str | None:
        """The notice shown to players, None for a void (the void itself is what they see)."""
        return NOTICES.get(self.effect)


def _refused(problem: str, field: str = "kind") -> RuleViolation:
    return RuleViolation("R9", problem, field=field)


def _misdeal(round_: Round, card: Card | None, report: Report) -> Ruling:
    """R9: a misdealt card caught before any further card is taken back and dealt to the right
    position; caught later the house may void the round (or let it go on, recorded)."""
    if card is None:
        raise _refused("a misdeal names the card that went to the wrong position", "card")
    step = round_.dealt_step(card)
    if step is None:
        raise _refused(f"{card} has not been dealt in this round", "card")
    if step == round_.last_dealt():
        if report.wrong_position is None or not 0 <= report.wrong_position < len(DEALING_ORDER):
            raise _refused("wrong_position: the position the card went to (0-11) is required", "wrong_position")
        if report.wrong_position == step.position:
            raise _refused(f"{card} went to {step.label}, its right position", "wrong_position")
        return Ruling(report.kind, Effect.CORRECTED, round_.stage, card, wrong_position=report.wrong_position,
                      corrected_to=step.position)
    if report.house_voids:
        return Ruling(report.kind, Effect.VOID, round_.stage, card, VoidReason.MISDEAL)
    return Ruling(report.kind, Effect.RECORDED, round_.stage, card)


def needs_house(report: Report) -> bool:
    """R9: whether only the house's authority (a pit supervisor, not a dealer) may report this:
    "the house may void the round" for a misdeal caught too late to correct, and "the house may
    void any erroneous round" (``other_error``). A dealer reports the rest, including the voids
    R9 makes certain (an exposure during betting, a dropped card seen, a shuffler jam)."""
    return report.kind is IncidentKind.OTHER_ERROR or (report.kind is IncidentKind.MISDEAL and report.house_voids)


def rule(round_: Round, report: Report) -> Ruling:
    """R9: what the reported incident does to ``round_`` now. Raises :class:`RuleViolation`
    (``R9: …``) when it cannot happen at this point of the round."""
    if round_.phase in FINISHED:
        raise _refused(f"the round is already {round_.phase.value}")
    if not round_.live:
        raise _refused("an RNG round has no physical cards: the house voids it with an operator void")
    card = None if report.card is None else read_code(report.card)
    started, dealing = round_.dealt_count > 0, round_.phase is not Phase.BETTING
    kind = report.kind

    def ruling(effect: Effect, reason: VoidReason | None = None, stage: Stage | None = None) -> Ruling:
        return Ruling(kind, effect, stage or round_.stage, card, reason,
                      deck_restored=reason is VoidReason.DROPPED_CARD_SEEN)

    if kind in (IncidentKind.EXPOSED_WHILE_SHUFFLING, IncidentKind.DROPPED_IN_SHUFFLE):
        if started:
            raise _refused("the shuffle is over once the first card has been dealt")
        return ruling(Effect.RESHUFFLE if kind is IncidentKind.EXPOSED_WHILE_SHUFFLING else Effect.USED_AGAIN,
                      stage=Stage.BETTING)
    if kind is IncidentKind.CARD_EXPOSED:  # [reading] during betting = before the first card
        return ruling(Effect.RECORDED) if started else ruling(Effect.VOID, VoidReason.CARD_EXPOSED_DURING_BETTING,
                                                              Stage.BETTING)
    if kind is IncidentKind.DROPPED_ON_BURN:
        if not round_.burn_in_hand():
            raise _refused("no burn card is being dealt")
        return ruling(Effect.USED_AGAIN)
    if kind in (IncidentKind.DROPPED_FACE_UNSEEN, IncidentKind.DROPPED_FACE_SEEN):
        if not dealing:
            raise _refused("no card is being dealt while betting is open (a card dropped in the shuffle is "
                           "dropped_in_shuffle)")
        if kind is IncidentKind.DROPPED_FACE_UNSEEN:
            return ruling(Effect.USED_AGAIN)
        return ruling(Effect.VOID, VoidReason.DROPPED_CARD_SEEN)
    if kind is IncidentKind.DROPPED_IN_VIEW:
        return ruling(Effect.RECORDED)
    if kind is IncidentKind.MISDEAL:
        return _misdeal(round_, card, report)
    if kind is IncidentKind.SHUFFLER_JAM:
        return ruling(Effect.VOID, VoidReason.SHUFFLER_JAM)
    return ruling(Effect.VOID, VoidReason.OPERATOR)


def can_report(round_: Round, report: Report) -> bool:
    """Whether :func:`rule` accepts this report now."""
    try:
        rule(round_, report)
    except ValueError:
        return False
    return True
