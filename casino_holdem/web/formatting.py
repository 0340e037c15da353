"""Template filters: amounts and times formatted for the player's language with Babel (issue 13),
and rule-book names as people read them.

Amounts stay exact: a Decimal (or its string) goes to Babel's decimal formatting, never a float;
static/common.js formats the same way through ``Intl`` with the same locale, so a page's
server-written and script-written amounts read alike.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from functools import lru_cache
from typing import cast

from babel.numbers import format_decimal
from flask import Flask
from flask_babel import format_datetime, get_locale

from ..core.money import round_down
from ..services.paytable_figures import decimal_text, fraction_of
from ..services.wallet import currency_spec


@lru_cache(maxsize=32)
def _unit(currency: str) -> Decimal:
    """R6: the currency's smallest unit (a paytable version in use is never edited)."""
    return currency_spec(currency).unit


def number(value: Decimal, decimals: int) -> str:
    """An exact amount in the page's locale: grouped, at least ``decimals`` places, never rounded."""
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=get_locale() or "en", decimal_quantization=False)


def money(amount: str | Decimal | None, currency: str) -> str:
    """``"1234.5"`` in USD → ``"USD 1,234.50"`` (grouped for the locale, padded to the currency's
    unit, R6)."""
    if amount is None:
        return "—"
    unit = _unit(currency)
    value = Decimal(amount)
    exponent = unit.as_tuple().exponent
    decimals = max(0, -exponent) if isinstance(exponent, int) and round_down(value, unit) == value else 0
    return f"{currency} {number(value, decimals)}"


def when(moment: str | dt.datetime | None) -> str:
    """An ISO 8601 time (UTC) as the locale writes a date and time (``Dec 3, 2026, 9:05:00 AM``)."""
    if moment is None:
        return "—"
    return cast(str, format_datetime(dt.datetime.fromisoformat(moment) if isinstance(moment, str) else moment,
                                     "medium"))  # Flask-Babel is unannotated


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
    for template_filter in (money, when, label, phase, trend, percent):
        app.add_template_filter(template_filter)
