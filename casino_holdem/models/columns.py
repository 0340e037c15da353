"""The column types every model uses: exact money and aware UTC instants.

Money is :class:`~decimal.Decimal` end to end. :class:`Money` is ``NUMERIC(20, 5)`` on
PostgreSQL and a scaled 64-bit integer (units of 0.00001) on SQLite, whose NUMERIC affinity would
otherwise store binary floats and sum them inexactly; five places is the pool's precision (R6).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, DateTime, Numeric
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

from ..core.money import POOL_PLACES, POOL_QUANTUM

MONEY_PRECISION = 20


class Money(TypeDecorator[Decimal]):
    """An exact amount with up to 5 decimal places; floats are refused when binding."""

    impl = Numeric(MONEY_PRECISION, POOL_PLACES)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(BigInteger())
        return dialect.type_descriptor(Numeric(MONEY_PRECISION, POOL_PLACES, asdecimal=True))

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        if isinstance(value, (float, bool)):
            raise TypeError(f"money must be a Decimal, not {type(value).__name__}")
        amount = Decimal(value)
        if amount.quantize(POOL_QUANTUM) != amount:
            raise ValueError(f"money {amount}: more than {POOL_PLACES} decimal places")
        return int(amount.scaleb(POOL_PLACES)) if dialect.name == "sqlite" else amount

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        if value is None:
            return None
        amount = Decimal(int(value)).scaleb(-POOL_PLACES) if dialect.name == "sqlite" else Decimal(value)
        return _plain(amount)

    @property
    def python_type(self) -> type:
        return Decimal


def _plain(amount: Decimal) -> Decimal:
    """Without trailing zeros, never in exponent form: 100.00000 → 100, 0.95000 → 0.95."""
    normal = amount.normalize()
    return normal.quantize(Decimal(1)) if normal.as_tuple().exponent > 0 else normal  # type: ignore[operator]


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A timezone-aware UTC instant; SQLite stores it naive (in UTC) and gets the zone back."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("datetimes must be timezone-aware (UTC)")
        value = value.astimezone(dt.UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
