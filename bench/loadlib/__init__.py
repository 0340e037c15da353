"""The measuring instruments behind ``bench/load.py`` and ``bench/faults.py``.

They speak to the game server only as a player or an operator would: the public JSON API, the
server-sent event streams and the ``casino-holdem`` command line, so they measure today's server
and any later one that keeps those contracts. Reading the database is limited to the timestamps
the dealer lag needs and to the faults' independent ledger checks (:mod:`.database`).
"""
