"""Compliance math: exact return figures, batch simulation and the shuffle's statistical checks.

- :mod:`.rtp` — exact Bonus (R4), Progressive (R5) and main-game (R3) figures of a paytable;
  :mod:`.rtp_output` — that report as JSON and text;
- :mod:`.exact` — the full enumeration behind them (every board × every Player and Dealer hand);
- :mod:`.batch_rules` — the settlement rules of :mod:`..core.rules` and :mod:`..core.progressive`
  vectorised with numpy, twin by twin;
- :mod:`.simulate` — millions of rounds dealt, played and settled with :mod:`.batch_rules`;
- :mod:`.vector` — card arithmetic for the strategies and the enumeration;
- :mod:`.strategies` — the named playing strategies (R2 decisions) and their registry;
- :mod:`.rng_test` — chi-square checks of the play shuffle (R1);
- :mod:`.report` — the HTML report (the ``casino-holdem`` commands are in ``commands/compliance.py``).

Everything here sits above the pure core and only reads from it.
"""
