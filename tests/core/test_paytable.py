"""docs/paytables.md: parsing a paytable's bytes, validation (every problem names its key), identity by SHA-256."""

from __future__ import annotations

import hashlib
from decimal import Decimal
from pathlib import Path

import pytest

from casino_holdem.core.errors import InvalidPaytable
from casino_holdem.core.evaluator import Category
from casino_holdem.core.paytable import parse_paytable

STANDARD = Path("paytables/standard-v1.toml")


def test_standard_paytable_holds_the_rule_book_values(standard) -> None:
    assert (standard.id, standard.version, standard.ref) == ("standard", 1, "standard@1")
    assert standard.main.ante_qualifier is Category.STRAIGHT  # R3
    assert (standard.main.ante, standard.main.flop, standard.main.turn, standard.main.river) == (1, 1, 1, 1)
    assert [standard.bonus.odds(line) for line in (
        "aa_vs_dealer_aa", "aa", "ak_suited", "aq_aj_suited", "ak_offsuit", "kk_qq_jj", "aq_aj_offsuit", "pair_2_to_10",
    )] == [1000, 30, 25, 20, 15, 10, 5, 3]  # R4
    progressive = standard.progressive  # R5
    assert progressive.contribution == Decimal("0.95") and progressive.seed == 0
    assert [progressive.p1_share(s) for s in ("flop", "turn", "river")] == [
        Decimal("0.90"), Decimal("0.25"), Decimal("0.05")]
    assert progressive.p2_prize(Category.STRAIGHT_FLUSH) == 600 and progressive.p2_prize(Category.FOUR_OF_A_KIND) == 120
    assert progressive.p2_prize(Category.ROYAL_FLUSH) is None  # R5 [reading]: a royal is P1's
    assert [progressive.p3_prize(c) for c in (Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH,
                                               Category.FOUR_OF_A_KIND)] == [4000, 600, 120]


@pytest.mark.parametrize("code, multiplier, unit", [
    ("RMB", "5", "0.01"), ("USD", "1", "0.01"), ("EUR", "1", "0.01"), ("AUD", "1", "0.01"), ("MYR", "2", "0.01"),
    ("THB", "25", "0.01"), ("JPY", "100", "1"), ("IDR", "10", "0.001"), ("VND", "20", "0.001"), ("KRW", "1000", "1"),
    ("INR", "40", "0.01"),
])
def test_r6_currency_multipliers_and_units(standard, code: str, multiplier: str, unit: str) -> None:
    spec = standard.currency(code)
    assert (spec.multiplier, spec.unit) == (Decimal(multiplier), Decimal(unit))


def test_identity_is_the_sha256_of_the_exact_bytes(standard) -> None:
    assert standard.sha256 == hashlib.sha256(STANDARD.read_bytes()).hexdigest()
    assert standard.describe() == {"id": "standard", "version": "1", "sha256": standard.sha256}


def _mutated(old: str, new: str) -> bytes:
    text = STANDARD.read_text()
    assert old in text, old
    return text.replace(old, new, 1).encode()


@pytest.mark.parametrize("old, new, problem", [
    ("ante = 1\n", "", "main.ante: missing"),
    ("ante = 1\n", "ante = \"one\"\n", "main.ante: 'one' is not an integer"),
    ("aa = 30", "aa = -30", "bonus.aa: -30 is below the minimum 0"),
    ('contribution = "0.95"', "contribution = 0.95", "progressive.contribution: 0.95 is not a decimal string"),
    ('contribution = "0.95"', 'contribution = "1.5"', "progressive.contribution: 1.5 is out of range (0..1)"),
    ('royal_flush_turn = "0.25"', 'royal_flush_turn = "a quarter"',
     "progressive.p1.royal_flush_turn: 'a quarter' is not a decimal number"),
    ("straight_flush = 600\nfour", "straight_flush = -600\nfour",
     "progressive.p2.straight_flush: -600 is out of range"),
    ('ante_qualifier = "straight"', 'ante_qualifier = "pair"',
     'main.ante_qualifier: \'pair\' must be "straight" or "flush"'),
    ("INR = {", "XYZ = {", "currencies.XYZ: unknown currency"),
    ('JPY = { multiplier = 100, unit = "1" }', 'JPY = { multiplier = 100, unit = "0.05" }',
     "currencies.JPY.unit: 0.05 is not a power of ten"),
    ('KRW = { multiplier = 1000, unit = "1" }', 'KRW = { multiplier = 3, unit = "0.01" }',
     "currencies.KRW: unit 0.01 / multiplier 3 needs more than 5 decimal places"),
    ("aa = 30", "aa = 30\naaa = 40", "bonus.aaa: unknown key"),
    ('version = 1', 'version = 2', "paytable.version: 2 does not match the file name standard-v1.toml"),
    ('id = "standard"', 'id = "house"', "paytable.id: 'house' does not match the file name standard-v1.toml"),
    ('effective_from = "2026-12-01"', 'effective_from = "soon"', "paytable.effective_from: 'soon' is not a date"),
    ("[bonus]", "[bonuses]", "[bonus]: missing table"),
    ('USD = { multiplier = 1, unit = "0.01" }', "USD = 5", "currencies.USD: 5 is not a table"),
])
def test_invalid_paytable_names_the_key(old: str, new: str, problem: str) -> None:
    with pytest.raises(InvalidPaytable) as caught:
        parse_paytable(_mutated(old, new), source="paytables/standard-v1.toml")
    assert any(p.startswith(problem) for p in caught.value.problems), caught.value.problems


def test_every_problem_is_reported_at_once() -> None:
    content = _mutated("aa = 30", "aa = -1").decode().replace('seed = "0"', 'seed = "-5"').encode()
    with pytest.raises(InvalidPaytable) as caught:
        parse_paytable(content, source="x.toml")
    assert len(caught.value.problems) == 2


def test_a_missing_table_is_one_problem_not_one_per_key() -> None:
    with pytest.raises(InvalidPaytable) as caught:
        parse_paytable(_mutated("[bonus]", "[bonuses]"), source="x.toml")
    assert caught.value.problems.count("[bonus]: missing table") == 1


def test_not_toml_is_one_clear_problem() -> None:
    with pytest.raises(InvalidPaytable, match="not a valid TOML file"):
        parse_paytable(b"[paytable\nid=", source="broken.toml")

