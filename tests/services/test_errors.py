"""The one translation of core refusals into service errors: the kind of refusal decides the
status (409 not allowed now, 422 refused by the rules, 400 malformed), and the field at fault is
the core's own when it names one."""

from __future__ import annotations

import pytest

from casino_holdem.core.errors import InvalidAmount, InvalidBet, InvalidCard, InvalidPaytable, RuleViolation
from casino_holdem.core.round import Action
from casino_holdem.services.errors import BadRequest, Conflict, Unprocessable, core_refusals, one_of

REFUSALS = [
    (RuleViolation("R2.1", "betting is closed for this round"), "table",
     Conflict, "R2.1: betting is closed for this round", "table"),
    (InvalidBet("R2.1", "bonus 0.5: below the table minimum 1 USD", "bonus"), "table",
     Unprocessable, "R2.1: bonus 0.5: below the table minimum 1 USD", "bonus"),
    (InvalidPaytable(["no paytable 'house' in paytables"], "house"), "paytable",
     Unprocessable, "paytable: house: no paytable 'house' in paytables", "paytable"),
    (InvalidAmount("ante", "'ten' is not a decimal number"), "ante",
     BadRequest, "ante: 'ten' is not a decimal number", "ante"),
    (InvalidCard("'Zz': not a card (rank 2-9 T J Q K A or 10, suit c d h s)"), "cards",
     BadRequest, "'Zz': not a card (rank 2-9 T J Q K A or 10, suit c d h s)", "cards"),
]


@pytest.mark.parametrize("error, field, kind, message, named", REFUSALS)
def test_a_core_refusal_becomes_a_service_error_naming_the_field(error, field, kind, message, named) -> None:
    with pytest.raises(kind) as raised, core_refusals(field):
        raise error
    assert (type(raised.value), raised.value.message, raised.value.field) == (kind, message, named)


def test_anything_else_is_not_a_refusal_and_passes_through() -> None:
    with pytest.raises(ZeroDivisionError), core_refusals("table"):
        raise ZeroDivisionError("a bug stays a bug")


def test_r2_names_are_read_as_the_rule_book_spells_them() -> None:
    assert one_of(Action, "flop", "action") is Action.FLOP
    with pytest.raises(BadRequest) as raised:
        one_of(Action, "raise", "action")
    assert (raised.value.message, raised.value.field) == (
        "action: 'raise' must be one of fold, flop, bet, check", "action")
