"""Issue 10: the fan-out's own bookkeeping, beside the streams that show it (test_streams.py)."""

from __future__ import annotations

from casino_holdem.events.bus import LocalBus
from casino_holdem.events.fanout import Fanout, Subscriber


def test_a_balance_read_by_a_build_that_began_earlier_does_not_replace_a_newer_one(app) -> None:
    """Two builds may run at once: the one that began later read the newer balance, so the
    earlier one, finishing last, leaves it in place on each of the viewer's streams."""
    fanout = Fanout(app, LocalBus(), build_threads=2)
    lobby, seat = Subscriber(7, "USD", {"available": "1000"}), Subscriber(7, "USD", {"available": "1000"})
    fanout.subscribe("lobby", lobby)
    fanout.subscribe("table:1", seat)
    fanout._share_balances({7: {"available": "975"}}, began=2.0)
    fanout._share_balances({7: {"available": "990"}}, began=1.0)
    assert lobby.balance == seat.balance == {"available": "975"}
    fanout._share_balances({7: {"available": "950"}}, began=3.0)
    assert lobby.balance == seat.balance == {"available": "950"}
