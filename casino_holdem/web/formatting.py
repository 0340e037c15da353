"""Template filters: amounts in a currency and rule-book names as people read them."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from flask import Flask

from ..core.money import round_down
from ..services.paytable_figures import decimal_text, fraction_of
from ..services.wallet import currency_spec


@lru_cache(maxsize=32)
def _unit(currency: str) -> Decimal:
    """R6: the currency's smallest unit (a paytable version in use is never edited)."""
    return currency_spec(currency).unit


def money(amount: str | Decimal | None, currency: str) -> str:
    """``"1234.5"`` in USD → ``"USD 1,234.50"`` (grouped, padded to the currency's unit, R6)."""
    if amount is None:
        return "—"
    unit = _unit(currency)
    value = Decimal(amount)
    shown = value.quantize(unit) if round_down(value, unit) == value else value
    return f"{currency} {shown:,}"


def label(slug: str | None) -> str:
    """``"two_pair"`` → ``"Two pair"``; ``"pre_flop"`` → ``"Pre flop"``."""
    return "" if not slug else slug.replace("_", " ").capitalize()


#: the phases of a round (R2) as the pages name them; static/common.js has the same names
PHASES = {"waiting": "Waiting", "betting": "Betting", "pre_flop": "Pre-flop", "flop": "Flop", "turn": "Turn",
          "showdown": "Showdown", "settled": "Settled", "void": "Void"}


def phase(slug: str) -> str:
    return PHASES.get(slug, label(slug))


def trend(amount: str | None) -> str:
    """The CSS class of a net result: ``plus``, ``minus`` or nothing for zero."""
    if amount is None or Decimal(amount) == 0:
        return ""
    return "plus" if Decimal(amount) > 0 else "minus"


def percent(figure: dict[str, str] | None, places: int = 4, signed: bool = False) -> str:
    """A stored exact figure (R3-R5 returns, ``{"fraction": "n/d", …}``) as a percentage rounded
    half-even, ``+`` before a positive change when ``signed``; "—" for none."""
    if figure is None:
        return "—"
    value = fraction_of(figure) * 100
    return f"{'+' if signed and value > 0 else ''}{decimal_text(value, places)} %"


def register(app: Flask) -> None:
    for template_filter in (money, label, phase, trend, percent):
        app.add_template_filter(template_filter)
