"""The ``casino-holdem`` commands, one module per audience:

- :mod:`.verify` — ``scenario``, ``hand``, ``paytable`` (the compliance lab checks the rules)
- :mod:`.compliance` — ``rtp``, ``simulate``, ``rng-test`` (return figures and the shuffle)
- :mod:`.server` — ``init-db``, ``serve``, ``dealer`` (running the house)
- :mod:`.operator` — ``table``, ``pool``, ``player``, ``void`` (the pit and the cashier)
- :mod:`.audit` — ``replay``, ``audit-ledger`` (re-deriving the record)

Each module lists its commands in ``COMMANDS``; :mod:`casino_holdem.cli` puts them on one group.
What they print goes through :mod:`.terminal`: one JSON writer, one exit-2 path for bad input.
"""
