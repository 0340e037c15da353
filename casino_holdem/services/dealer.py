"""The dealer loop, and the demo bots that make a fresh install deal by itself.

Every tick the loop gives each table a few :func:`~.dealer_steps.advance` calls, each its own
transaction that skips a table another dealer holds (``FOR UPDATE SKIP LOCKED`` on PostgreSQL;
SQLite serializes writers). Nothing lives in memory between ticks, so several dealers may run at
once, and a dealer killed at any point resumes every round from its last committed step.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import threading
import uuid
from dataclasses import dataclass, field
from decimal import Decimal

from flask import Flask
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from ..core.round import FINISHED, Action
from ..extensions import db
from ..models import GameTable, Player
from . import viewing, wallet
from .dealer_steps import Step, advance
from .errors import ServiceError
from .queries import latest_round
from .rounds import decide, place_bets
from .tables import list_tables
from .transaction import clock

log = logging.getLogger(__name__)
#: at most this many steps per table per tick (open, deal, …, settle is at most six)
STEPS_PER_TICK = 8


def _showing_showdown(table_id: int, pause: float) -> bool:
    """R2.7: a round settled less than ``pause`` seconds ago stays on the felt, so that its players
    can read the showdown before the next betting window opens."""
    if pause <= 0:
        return False
    last = latest_round(table_id)
    return (last is not None and last.phase in FINISHED and last.finished_at is not None
            and clock(None) - last.finished_at < dt.timedelta(seconds=pause))


def tick(*, skip_locked: bool = True, showdown_pause: float = 0.0) -> list[Step]:
    """Advance every table as far as it is due now, leaving a just-finished round on the felt for
    ``showdown_pause`` seconds; returns the steps taken."""
    steps: list[Step] = []
    for table in list_tables():
        try:
            for _ in range(STEPS_PER_TICK):
                if _showing_showdown(table.id, showdown_pause):
                    break
                step = advance(table.id, skip_locked=skip_locked)
                if step is None:
                    break
                steps.append(step)
        except DBAPIError:
            raise  # the database is away: the loop waits it out
        except Exception:  # one table's failure (rolled back) must not stop the others
            log.exception("table %s: advance failed", table.id)
    return steps


@dataclass
class Bots:
    """Demo players who bet and decide at random on demo tables (R2), topping themselves up with
    demo money when they run low. Some decisions are left to time out, to show R8 at work."""

    rng: random.Random = field(default_factory=random.Random)
    bet_chance: float = 0.6
    decide_chance: float = 0.7

    def play(self) -> None:
        bots = db.session.scalars(select(Player).where(Player.is_bot.is_(True)).order_by(Player.id)).all()
        tables = db.session.scalars(select(GameTable).where(GameTable.is_demo.is_(True), GameTable.is_open.is_(True))
                                    .order_by(GameTable.id)).all()
        plan = [(bot.id, bot.currency, table.id, table.ante_min or Decimal(1)) for bot in bots for table in tables]
        db.session.rollback()
        for bot_id, currency, table_id, ante_min in plan:
            try:
                self._play(bot_id, currency, table_id, ante_min)
            except ServiceError as error:  # a lost race with the dealer's clock is normal
                log.debug("bot %s at table %s: %s", bot_id, table_id, error)

    def _play(self, bot_id: int, currency: str, table_id: int, ante_min: Decimal) -> None:
        current = viewing.current_round_view(table_id, bot_id)
        if current is None:
            return
        if current["phase"] == "betting" and not current["you"]["has_bet"] and self.rng.random() < self.bet_chance:
            multiplier = wallet.currency_spec(currency).multiplier
            ante = ante_min * multiplier * self.rng.choice((1, 1, 2, 5))
            if wallet.balance(bot_id).available < ante * 10:
                wallet.deposit(bot_id, ante * 1000, f"bot-topup:{uuid.uuid4()}")
            place_bets(bot_id, table_id, ante, ante if self.rng.random() < 0.3 else Decimal(0),
                       self.rng.random() < 0.5, request_id=str(uuid.uuid4()))
        elif current["you"]["allowed_actions"] and self.rng.random() < self.decide_chance:
            choices = current["you"]["allowed_actions"]
            weights = [1 if action in (Action.FOLD.value, Action.CHECK.value) else 3 for action in choices]
            decide(bot_id, current["round_id"], self.rng.choices(choices, weights)[0], request_id=str(uuid.uuid4()))


def run(app: Flask, *, stop: threading.Event, bots: Bots | None = None, tick_seconds: float | None = None) -> None:
    """The dealer loop: tick, let the bots play, sleep; until ``stop`` is set. A database outage
    (a restarted PostgreSQL) is logged and waited out."""
    pause = tick_seconds if tick_seconds is not None else float(app.config["CASINO_DEALER_TICK"])
    showdown_pause = float(app.config["CASINO_SHOWDOWN_PAUSE"])
    with app.app_context():
        while not stop.is_set():
            try:
                for step in tick(showdown_pause=showdown_pause):
                    log.info("table %s round %s: %s", step.table_id, step.round_number, step.event)
                if bots is not None:
                    bots.play()
            except DBAPIError as error:
                log.warning("database unavailable, retrying: %s", error.__class__.__name__)
                db.session.remove()
                stop.wait(1.0)
            except Exception:  # one table's failure must not stop the others; it was rolled back
                log.exception("dealer tick failed")
                db.session.remove()
            stop.wait(pause)
