"""Issue 10: several ``casino-holdem dealer`` processes share the tables on PostgreSQL (``FOR NO KEY
UPDATE SKIP LOCKED``): each step of each round is taken exactly once, no round is left stuck when one
dealer stops, and SIGTERM lets a dealer finish the step in progress and exit 0."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from casino_holdem.core.round import FINISHED
from casino_holdem.extensions import db
from casino_holdem.models import Bet, GameRound
from casino_holdem.services import rounds, verify
from casino_holdem.services.errors import ServiceError
from support.app import POSTGRES_URL, empty_all_tables, make_app, release
from support.casino import Casino, assert_each_step_taken_once
from support.server import stop_cleanly, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not POSTGRES_URL, reason="CASINO_TEST_DATABASE_URL is not set")]
ROOT = Path(__file__).resolve().parents[2]
#: a generous ceiling: the machine is shared
PLAY_SECONDS = 300


@pytest.fixture
def floor(postgres_url: str) -> Iterator[tuple[Flask, list[int], list[int]]]:
    """Three tables with 1-second windows on one pool, and four funded players."""
    app = make_app(postgres_url)
    empty_all_tables(app)
    with app.app_context():
        casino = Casino()
        pool = casino.seeded_pool("100")
        tables = [casino.linked_table(f"t{i}", pool, betting_seconds=1, decision_seconds=1) for i in range(3)]
        players = [casino.funded_player(f"p{i}", "USD", "100000") for i in range(4)]
    yield app, tables, players
    release(app)


def _dealer(postgres_url: str, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "CASINO_DATABASE_URL": postgres_url, "CASINO_SECRET_KEY": "test",
           "CASINO_SHOWDOWN_PAUSE": "0.2"}
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "casino_holdem", "dealer"], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)


def _settled(app: Flask) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(GameRound).where(GameRound.phase == "settled"))
        db.session.remove()
    return int(count or 0)


def _stuck(app: Flask) -> int:
    """Rounds with bets that are not finished."""
    with app.app_context():
        count = db.session.scalar(select(func.count(func.distinct(GameRound.id))).join(Bet)
                                  .where(GameRound.phase.not_in([phase.value for phase in FINISHED])))
        db.session.remove()
    return int(count or 0)


def test_two_dealer_processes_take_each_step_once_and_stop_cleanly_on_sigterm(
        floor: tuple[Flask, list[int], list[int]], postgres_url: str, tmp_path: Path) -> None:
    app, tables, players = floor
    logs = [tmp_path / "dealer-1.log", tmp_path / "dealer-2.log"]
    dealers = [_dealer(postgres_url, log) for log in logs]
    betting = threading.Event()
    betting.set()

    def bettor() -> None:
        with app.app_context():
            while betting.is_set():
                for table in tables:
                    for player in players:
                        try:
                            rounds.place_bets(player, table, "1", progressive=True, request_id=uuid.uuid4().hex)
                        except ServiceError:
                            pass  # betting is closed at that table now: the next round will take it
                time.sleep(0.05)  # pacing, not waiting: bets keep coming while the dealers deal
            db.session.remove()

    thread = threading.Thread(target=bettor)
    thread.start()
    try:
        wait_until(lambda: _settled(app) >= 6, seconds=PLAY_SECONDS, what="six settled rounds", process=dealers[0],
                   log=logs[0])
        stop_cleanly(dealers[0], logs[0])  # mid-play: its step finishes; the other dealer carries every table on
        wait_until(lambda: _settled(app) >= 9, seconds=PLAY_SECONDS, what="three more rounds with one dealer",
                   process=dealers[1], log=logs[1])
    finally:
        betting.clear()
        thread.join()
    try:
        wait_until(lambda: _stuck(app) == 0, seconds=PLAY_SECONDS, what="every round with bets settled (R8)",
                   process=dealers[1], log=logs[1])
    finally:
        for dealer, log in zip(dealers, logs, strict=True):
            if dealer.poll() is None:
                stop_cleanly(dealer, log)
    taken = [log.read_text().count(" round ") for log in logs]
    assert all(count > 0 for count in taken), taken  # both dealers dealt
    with app.app_context():
        settled = assert_each_step_taken_once()
        assert all(verify.replay(round_id).identical for round_id in settled)
        assert verify.audit_ledger() == []
        db.session.remove()
