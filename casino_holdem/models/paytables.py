"""The operator's library of paytable versions: each file's exact bytes, approved by a second
manager before a table may use it.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy import Date, Integer, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .columns import UTCDateTime, utcnow


class PaytableStatus(StrEnum):
    """The lifecycle of a stored paytable version; "in use" is derived (a table or a round names it)."""

    DRAFT = "draft"
    APPROVED = "approved"
    RETIRED = "retired"


class PaytableVersion(db.Model):  # type: ignore[name-defined,misc]
    """A paytable file's exact bytes, kept by SHA-256 so that every round settled under it can be
    replayed on any server; a second manager approves it before any table may use it (four-eyes)."""

    __tablename__ = "paytable_versions"
    __table_args__ = (UniqueConstraint("paytable_id", "version", name="uq_paytable_versions_id_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    paytable_id: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(200))
    effective_from: Mapped[dt.date] = mapped_column(Date)
    content: Mapped[bytes] = mapped_column(LargeBinary)
    status: Mapped[str] = mapped_column(String(16), default=PaytableStatus.DRAFT.value)
    submitted_by: Mapped[str] = mapped_column(String(64))
    submitted_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    approved_by: Mapped[str | None] = mapped_column(String(64))
    approved_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
