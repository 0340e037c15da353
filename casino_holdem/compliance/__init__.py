"""Compliance math: exact return figures, batch simulation and the shuffle's statistical checks.

- :mod:`.rtp` — exact Bonus (R4), Progressive (R5) and main-game (R3) figures of a paytable;
- :mod:`.exact` — the full enumeration behind them (every board × every Player and Dealer hand);
- :mod:`.simulate` — vectorised rounds settled with the same semantics as :mod:`..core.rules`;
- :mod:`.strategies` — the named playing strategies (R2 decisions) and their registry;
- :mod:`.rng_test` — chi-square checks of the play shuffle (R1);
- :mod:`.report` — the HTML report; :mod:`.commands` — the ``casino-holdem`` commands.

Everything here sits above the pure core and only reads from it.
"""
