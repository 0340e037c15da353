"""R6: exact amounts, rounding down to the currency unit, formatting."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino_holdem.core.money import (
    InvalidAmount,
    format_amount,
    format_pool,
    is_multiple_of,
    parse_amount,
    round_down,
)


@pytest.mark.parametrize("amount, unit, expected", [
    ("1333.3333", "0.01", "1333.33"), ("54545.45", "1", "54545"), ("1090.90909", "0.001", "1090.909"),
    ("0.009", "0.01", "0.00"), ("5.00", "0.01", "5.00"),
])
def test_r6_payouts_round_down_to_the_smallest_unit(amount: str, unit: str, expected: str) -> None:
    assert round_down(Decimal(amount), Decimal(unit)) == Decimal(expected)


@pytest.mark.parametrize("value", [1.5, True, None, "ten", "NaN", "Infinity", [1], "1e400", "-1e13", 10**13])
def test_amounts_must_be_exact_decimals(value: object) -> None:
    with pytest.raises(InvalidAmount, match="^ante: "):
        parse_amount(value, field="ante")


@pytest.mark.parametrize("amount, unit, whole", [
    ("10", "0.01", True), ("10.01", "0.01", True), ("1E+12", "0.01", True), ("0", "1", True),
    ("10.001", "0.01", False), ("1E-2000000", "0.01", False), ("0.5", "1", False),
])
def test_r6_whole_numbers_of_the_smallest_unit(amount: str, unit: str, whole: bool) -> None:
    assert is_multiple_of(Decimal(amount), Decimal(unit)) is whole


def test_amounts_parse_from_strings_and_integers() -> None:
    assert parse_amount(" 10.50 ", field="x") == Decimal("10.50") and parse_amount(7, field="x") == 7


@pytest.mark.parametrize("amount, text", [
    ("20.00", "20"), ("100", "100"), ("1E+3", "1000"), ("-0", "0"), ("0.001", "0.001"),
])
def test_currency_amounts_print_shortest_exact(amount: str, text: str) -> None:
    assert format_amount(Decimal(amount)) == text


@pytest.mark.parametrize("amount, text", [
    ("1.9", "1.90"), ("30000", "30000.00"), ("9410.47470", "9410.4747"), ("0", "0.00"),
])
def test_pool_amounts_print_two_to_five_places(amount: str, text: str) -> None:
    assert format_pool(Decimal(amount)) == text
