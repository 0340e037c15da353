"""Betting windows nobody bet in, reopened lazily (issue 10; R2.1, R8).

An open table's round that nobody has bet on is never dealt (R2.1). Its betting windows follow
each other, each ``betting_seconds`` long, from the round's stored deadline; nothing is written
while nobody bets — an idle table costs the dealer no transaction per window. The players'
countdown shows the end of the window in force (:func:`window_end`), and the first bet placed
after the stored deadline moves it there, so the round is then dealt when that window ends.
"""

from __future__ import annotations

import datetime as dt


def window_end(deadline: dt.datetime, betting_seconds: int, now: dt.datetime) -> dt.datetime:
    """The end of the betting window in force at ``now`` of an empty round whose stored deadline is
    ``deadline`` (a window closes at its end exactly, as R8's windows do)."""
    if now < deadline:
        return deadline
    window = dt.timedelta(seconds=betting_seconds)
    return deadline + ((now - deadline) // window + 1) * window
