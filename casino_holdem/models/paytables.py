"""The operator's library of paytable versions: each file's exact bytes, approved by a second
manager before a table may use it.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Date, Integer, LargeBinary, String, UniqueConstraint
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


class PaytableFigures(db.Model):  # type: ignore[name-defined,misc]
    """The exact return figures of one paytable version (issues 11 and 13), as ``casino-holdem rtp``
    reports them, computed once per (paytable SHA-256, engine hash) by the commands layer: services
    and web may not import the compliance tools, so they read the figures from here. ``figures``
    holds exact strings only (fractions and decimal strings, never floats); it is None while the
    row is a claim: a process is computing them since ``started_at``."""

    __tablename__ = "paytable_figures"
    __table_args__ = (UniqueConstraint("sha256", "engine", name="uq_paytable_figures_sha256_engine"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    engine: Mapped[str] = mapped_column(String(64))
    figures: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    computed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
