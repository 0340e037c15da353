"""Money: exact decimal amounts, parsing, R6 rounding and formatting.

Every amount in the project is a :class:`~decimal.Decimal`; JSON carries them as strings. The
jackpot pool is kept in base units to :data:`POOL_PLACES` decimal places (R6: "it needs 5
decimal places"), which is exact because every currency's ``unit / multiplier`` is a multiple
of the pool quantum (checked when a paytable is loaded).

>>> round_down(Decimal("1333.3333"), Decimal("0.01"))
Decimal('1333.33')
>>> format_amount(Decimal("20.00")), format_pool(Decimal("1.9"))
('20', '1.90')
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal, InvalidOperation, localcontext

from .errors import InvalidAmount as InvalidAmount  # its home is errors.py; importable from here too

POOL_PLACES = 5
POOL_QUANTUM = Decimal(1).scaleb(-POOL_PLACES)  # 0.00001 base units
ZERO = Decimal(0)
#: every single amount stays below 10^13, so sums of them fit the database's money columns (SQLite
#: keeps 0.00001 units in a 64-bit integer: about 9.2 × 10^13)
MAX_AMOUNT = Decimal(10) ** 13


def parse_amount(value: object, *, field: str) -> Decimal:
    """Read a decimal amount from a JSON value; floats are refused (they are not exact)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, Decimal)):
        raise InvalidAmount(field, f"{value!r} is not a decimal string such as \"10.50\"")
    try:
        amount = Decimal(value.strip() if isinstance(value, str) else value)
    except InvalidOperation:
        raise InvalidAmount(field, f"{value!r} is not a decimal number") from None
    if not amount.is_finite():
        raise InvalidAmount(field, f"{value!r} is not a finite amount")
    if abs(amount) >= MAX_AMOUNT:
        raise InvalidAmount(field, f"{value!r} is too large (amounts stay below 10^13)")
    return amount


def is_multiple_of(amount: Decimal, unit: Decimal) -> bool:
    """Whether ``amount`` is a whole number of ``unit`` (quantizing, so a remainder too small for
    the context, such as 1E-2000000 of a cent, is not mistaken for zero)."""
    with localcontext() as context:
        context.prec = 60
        try:
            return amount.quantize(unit, rounding=ROUND_DOWN) == amount
        except InvalidOperation:  # more digits than any amount we accept
            return False


def round_down(amount: Decimal, unit: Decimal) -> Decimal:
    """R6: a payout is rounded down to the currency's smallest unit; the rest stays in the pool."""
    with localcontext() as context:
        context.prec = 60
        return amount.quantize(unit, rounding=ROUND_DOWN)


def exact_div(amount: Decimal, divisor: Decimal | int) -> Decimal:
    """Divide with enough precision that no digit the pool needs is lost (prec 60)."""
    with localcontext() as context:
        context.prec = 60
        return amount / Decimal(divisor)


def format_amount(amount: Decimal) -> str:
    """A currency amount as the shortest exact decimal string ("20", "9999.28")."""
    text = format(amount.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def format_pool(amount: Decimal) -> str:
    """A base-unit pool amount: at least 2 and at most 5 decimal places, exact ("1.90")."""
    exact = format_amount(amount)
    whole, _, fraction = exact.partition(".")
    return f"{whole}.{fraction.ljust(2, '0')}"
