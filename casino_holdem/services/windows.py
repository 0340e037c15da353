"""When a table's next step may come: betting windows nobody bet in, reopened lazily (issue 10;
R2.1, R8), and the showdown pause before the next round opens (R2.7).

An open table's round that nobody has bet on is never dealt (R2.1). Its betting windows follow
each other, each ``betting_seconds`` long, from the round's stored deadline; nothing is written
while nobody bets — an idle table costs the dealer no transaction per window. The players'
countdown shows the end of the window in force (:func:`window_end`), and the first bet placed
after the stored deadline moves it there, so the round is then dealt when that window ends.

A finished round stays on the felt for the showdown pause (``CASINO_SHOWDOWN_PAUSE``) before the
next betting window opens; :func:`showdown_until` decides it, both for the dealer's step
(:func:`.dealer_steps.advance`) and for its sleep (:func:`.dealer.due`).
"""

from __future__ import annotations

import datetime as dt


def countdown(deadline: dt.datetime | None, betting_seconds: int, now: dt.datetime, *,
              idle: bool) -> tuple[dt.datetime | None, int | None]:
    """What the players count down to: the round's deadline — for an ``idle`` round (betting, and
    nobody has bet) the end of the window in force — and, for an idle round, the seconds after
    which its window opens again (R2.1: nothing is written then, so nothing is published; the
    pages roll the countdown over themselves). None for what does not apply."""
    if deadline is None or not idle:
        return deadline, None
    return window_end(deadline, betting_seconds, now), betting_seconds


def has_closed(deadline: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether the window ending at ``deadline`` is over at ``now``: it closes at its end exactly
    (R8); a round without a deadline has no window to close."""
    return deadline is not None and now >= deadline


def window_end(deadline: dt.datetime, betting_seconds: int, now: dt.datetime) -> dt.datetime:
    """The end of the betting window in force at ``now`` of an empty round whose stored deadline is
    ``deadline`` (a window closes at its end exactly, as R8's windows do)."""
    if not has_closed(deadline, now):
        return deadline
    window = dt.timedelta(seconds=betting_seconds)
    return deadline + ((now - deadline) // window + 1) * window


def showdown_until(finished_at: dt.datetime | None, pause_seconds: float, now: dt.datetime) -> dt.datetime | None:
    """R2.7: the instant until which the table's last round, finished at ``finished_at``, stays on
    the felt so that its players can read the showdown; None when the next round may open at
    ``now`` (no round finished yet, no pause, or the pause is over: it ends at its end exactly)."""
    if finished_at is None or pause_seconds <= 0:
        return None
    until = finished_at + dt.timedelta(seconds=pause_seconds)
    return until if now < until else None
