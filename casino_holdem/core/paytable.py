"""A versioned paytable file's bytes → frozen, validated values (R3–R6 odds, prizes, currencies).

Everything that decides what a bet pays comes from here, never from a literal in the code, so
that an operator's new paytable is a new file and every settled round can name (id, version,
SHA-256 of the exact bytes) what it was settled under. Validation collects every problem, each
naming its key, so an operator fixes a file in one pass.

Pure: this module parses bytes it is given; finding and reading files is
:mod:`casino_holdem.paytable_files`'s job.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import PurePath
from types import MappingProxyType
from typing import Any

from .errors import InvalidAmount
from .errors import InvalidPaytable as InvalidPaytable  # its home is errors.py; importable from here too
from .evaluator import Category
from .money import POOL_QUANTUM, is_multiple_of, parse_amount

#: R6: the currencies the rule book knows; a paytable may list any of them, and no other.
KNOWN_CURRENCIES = ("USD", "EUR", "AUD", "RMB", "MYR", "THB", "JPY", "IDR", "VND", "KRW", "INR")
ANTE_QUALIFIERS = {"straight": Category.STRAIGHT, "flush": Category.FLUSH}
BONUS_LINES = (
    "aa_vs_dealer_aa", "aa", "ak_suited", "aq_aj_suited",
    "ak_offsuit", "kk_qq_jj", "aq_aj_offsuit", "pair_2_to_10",
)
#: R5: the hands the fixed-prize tables pay, strongest first (a Royal Flush made with a hole card is
#: P1's, so P2 has none); the paytable's keys are their slugs (``p2.straight_flush``)
P2_HANDS = (Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND)
P3_HANDS = (Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND)
FILE_NAME = re.compile(r"^(?P<id>[a-z0-9][a-z0-9_.-]*)-v(?P<version>[0-9]+)\.toml$")


@dataclass(frozen=True, slots=True)
class CurrencySpec:
    """R6: the Progressive bet is ``multiplier`` units; payouts round down to ``unit``."""

    code: str
    multiplier: Decimal
    unit: Decimal


@dataclass(frozen=True, slots=True)
class MainPays:
    """R3: odds "N to 1" of each main-game bet and the Ante's qualifying hand."""

    ante_qualifier: Category
    ante: int
    flop: int
    turn: int
    river: int


@dataclass(frozen=True, slots=True)
class BonusPays:
    """R4: odds "N to 1" per pay line of the Player's hole cards."""

    aa_vs_dealer_aa: int
    aa: int
    ak_suited: int
    aq_aj_suited: int
    ak_offsuit: int
    kk_qq_jj: int
    aq_aj_offsuit: int
    pair_2_to_10: int

    def odds(self, line: str) -> int:
        return int(getattr(self, line))


@dataclass(frozen=True, slots=True)
class ProgressivePays:
    """R5: pool contribution, house seed, P1 shares of the pool, P2/P3 fixed prizes in base units."""

    contribution: Decimal
    seed: Decimal
    p1_royal_flush_flop: Decimal
    p1_royal_flush_turn: Decimal
    p1_royal_flush_river: Decimal
    p2_straight_flush: Decimal
    p2_four_of_a_kind: Decimal
    p3_royal_flush: Decimal
    p3_straight_flush: Decimal
    p3_four_of_a_kind: Decimal

    def p1_share(self, street: str) -> Decimal:
        return Decimal(getattr(self, f"p1_royal_flush_{street}"))

    def p2_prize(self, category: Category) -> Decimal | None:
        return Decimal(getattr(self, f"p2_{category.slug}")) if category in P2_HANDS else None

    def p3_prize(self, category: Category) -> Decimal | None:
        return Decimal(getattr(self, f"p3_{category.slug}")) if category in P3_HANDS else None


@dataclass(frozen=True, slots=True)
class Paytable:
    id: str
    version: int
    title: str
    effective_from: dt.date
    main: MainPays
    bonus: BonusPays
    progressive: ProgressivePays
    currencies: Mapping[str, CurrencySpec]
    sha256: str

    @property
    def ref(self) -> str:
        return f"{self.id}@{self.version}"

    def currency(self, code: str) -> CurrencySpec:
        try:
            return self.currencies[code]
        except KeyError:
            known = ", ".join(self.currencies)
            raise KeyError(f"unknown currency {code!r} (this paytable has {known})") from None

    def describe(self) -> dict[str, Any]:
        """The identity every settled round records (docs/paytables.md "Names, identity and versions")."""
        return {"id": self.id, "version": str(self.version), "sha256": self.sha256}


class _Reader:
    """Walks the parsed TOML, collecting one problem per bad key instead of stopping at the first."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.problems: list[str] = []
        self.seen: set[str] = set()
        #: the tables found missing, each reported once however many of its keys are looked up
        self.missing_tables: set[str] = set()

    def table(self, key: str) -> Mapping[str, Any]:
        node: Any = self.data
        for part in key.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        if not isinstance(node, Mapping):
            if key not in self.missing_tables:
                self.missing_tables.add(key)
                self.problems.append(f"[{key}]: missing table")
            return {}
        return node

    def value(self, key: str, kinds: tuple[type, ...], describe: str) -> Any:
        section, _, name = key.rpartition(".")
        table = self.table(section) if section else self.data
        self.seen.add(key)
        if name not in table:
            if section not in self.missing_tables:  # a missing table is one problem, not one a key
                self.problems.append(f"{key}: missing")
            return None
        raw = table[name]
        if isinstance(raw, bool) or not isinstance(raw, kinds):
            self.problems.append(f"{key}: {raw!r} is not {describe}")
            return None
        return raw

    def integer(self, key: str, *, minimum: int = 0) -> int:
        raw = self.value(key, (int,), "an integer")
        if raw is None:
            return 0
        if raw < minimum:
            self.problems.append(f"{key}: {raw} is below the minimum {minimum}")
        return int(raw)

    def decimal(self, key: str, *, low: Decimal, high: Decimal | None = None,
                integers_allowed: bool = False) -> Decimal:
        kinds: tuple[type, ...] = (str, int) if integers_allowed else (str,)
        describe = "a decimal (an integer or a string)" if integers_allowed else 'a decimal string such as "0.95"'
        raw = self.value(key, kinds, describe)
        if raw is None:
            return Decimal(0)
        try:
            amount = parse_amount(raw, field=key)
        except InvalidAmount as error:
            self.problems.append(str(error))
            return Decimal(0)
        if amount < low or (high is not None and amount > high):
            bound = f"{low}..{high}" if high is not None else f">= {low}"
            self.problems.append(f"{key}: {amount} is out of range ({bound})")
        elif not is_multiple_of(amount, POOL_QUANTUM):
            self.problems.append(f"{key}: {amount} has more than 5 decimal places")
        return amount

    def unknown_keys(self, key: str, allowed: set[str]) -> None:
        table = self.table(key) if key else self.data
        for name in table:
            if name not in allowed:
                self.problems.append(f"{key + '.' if key else ''}{name}: unknown key")


def _read_currencies(reader: _Reader) -> dict[str, CurrencySpec]:
    currencies: dict[str, CurrencySpec] = {}
    for code, entry in reader.table("currencies").items():
        key = f"currencies.{code}"
        if code not in KNOWN_CURRENCIES:
            reader.problems.append(f"{key}: unknown currency (known: {', '.join(KNOWN_CURRENCIES)})")
            continue
        if not isinstance(entry, Mapping):
            reader.problems.append(f'{key}: {entry!r} is not a table such as {{ multiplier = 1, unit = "0.01" }}')
            continue
        reader.unknown_keys(key, {"multiplier", "unit"})
        multiplier = reader.decimal(f"{key}.multiplier", low=Decimal(1), integers_allowed=True)
        unit = reader.decimal(f"{key}.unit", low=Decimal("0.000001"), high=Decimal(1))
        if unit and unit != Decimal(1).scaleb(unit.normalize().as_tuple().exponent):  # type: ignore[arg-type]
            reader.problems.append(f"{key}.unit: {unit} is not a power of ten such as \"0.01\"")
        elif unit and multiplier and not is_multiple_of(unit / multiplier, POOL_QUANTUM):
            reader.problems.append(
                f"{key}: unit {unit} / multiplier {multiplier} needs more than 5 decimal places "
                "in the pool (R6 keeps the pool exact)")
        elif unit and multiplier and not is_multiple_of(multiplier, unit):
            reader.problems.append(f"{key}.multiplier: {multiplier} is not a whole number of units {unit}")
        currencies[code] = CurrencySpec(code, multiplier, unit)
    if not currencies and "currencies" not in reader.missing_tables:
        reader.problems.append("currencies: no currency listed")
    return currencies


def parse_paytable(content: bytes, *, source: str = "paytable") -> Paytable:
    """Validate a paytable file's bytes; raise :class:`InvalidPaytable` listing every problem."""
    try:
        data = tomllib.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise InvalidPaytable([f"not a valid TOML file ({error})"], source) from None
    reader = _Reader(data)
    reader.unknown_keys("", {"paytable", "main", "bonus", "progressive", "currencies"})
    reader.unknown_keys("paytable", {"id", "version", "title", "effective_from"})
    identifier = reader.value("paytable.id", (str,), "a string") or ""
    if identifier and not re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", identifier):
        reader.problems.append(f"paytable.id: {identifier!r} must be lower-case letters, digits, _ . -")
    version = reader.integer("paytable.version", minimum=1)
    title = reader.value("paytable.title", (str,), "a string") or ""
    effective = reader.value("paytable.effective_from", (str, dt.date), "a date such as \"2026-12-01\"")
    effective_from = dt.date.min
    if isinstance(effective, dt.date):
        effective_from = effective
    elif isinstance(effective, str):
        try:
            effective_from = dt.date.fromisoformat(effective)
        except ValueError:
            reader.problems.append(f"paytable.effective_from: {effective!r} is not a date YYYY-MM-DD")

    reader.unknown_keys("main", {"ante_qualifier", "ante", "flop", "turn", "river"})
    qualifier_name = reader.value("main.ante_qualifier", (str,), "a string")
    if qualifier_name is not None and qualifier_name not in ANTE_QUALIFIERS:
        reader.problems.append(f"main.ante_qualifier: {qualifier_name!r} must be \"straight\" or \"flush\"")
    main = MainPays(
        ante_qualifier=ANTE_QUALIFIERS.get(qualifier_name or "", Category.STRAIGHT),
        **{bet: reader.integer(f"main.{bet}") for bet in ("ante", "flop", "turn", "river")},
    )
    reader.unknown_keys("bonus", set(BONUS_LINES))
    bonus = BonusPays(**{line: reader.integer(f"bonus.{line}") for line in BONUS_LINES})

    reader.unknown_keys("progressive", {"contribution", "seed", "p1", "p2", "p3"})
    reader.unknown_keys("progressive.p1", {"royal_flush_flop", "royal_flush_turn", "royal_flush_river"})
    reader.unknown_keys("progressive.p2", {hand.slug for hand in P2_HANDS})
    reader.unknown_keys("progressive.p3", {hand.slug for hand in P3_HANDS})

    def share(key: str) -> Decimal:
        return reader.decimal(key, low=Decimal(0), high=Decimal(1))

    def prize(key: str) -> Decimal:
        return reader.decimal(key, low=Decimal(0), integers_allowed=True)

    progressive = ProgressivePays(
        contribution=share("progressive.contribution"),
        seed=reader.decimal("progressive.seed", low=Decimal(0), integers_allowed=True),
        p1_royal_flush_flop=share("progressive.p1.royal_flush_flop"),
        p1_royal_flush_turn=share("progressive.p1.royal_flush_turn"),
        p1_royal_flush_river=share("progressive.p1.royal_flush_river"),
        p2_straight_flush=prize("progressive.p2.straight_flush"),
        p2_four_of_a_kind=prize("progressive.p2.four_of_a_kind"),
        p3_royal_flush=prize("progressive.p3.royal_flush"),
        p3_straight_flush=prize("progressive.p3.straight_flush"),
        p3_four_of_a_kind=prize("progressive.p3.four_of_a_kind"),
    )
    currencies = _read_currencies(reader)

    file_name = PurePath(source).name
    match = FILE_NAME.match(file_name)
    if match and identifier and match["id"] != identifier:
        reader.problems.append(f"paytable.id: {identifier!r} does not match the file name {file_name}")
    if match and version and int(match["version"]) != version:
        reader.problems.append(f"paytable.version: {version} does not match the file name {file_name}")
    if reader.problems:
        raise InvalidPaytable(reader.problems, source)
    return Paytable(
        id=identifier, version=version, title=title, effective_from=effective_from, main=main,
        bonus=bonus, progressive=progressive, currencies=MappingProxyType(currencies),
        sha256=hashlib.sha256(content).hexdigest(),
    )

