"""Services: one module per aggregate, each public function one database transaction.

- :mod:`.wallet` players, ledger accounts, double-entry postings, deposits, balances
- :mod:`.jackpot` pools, contributions, prizes, seed top-ups, audited corrections (R5, R6, R9)
- :mod:`.tables` tables, rounds, bets, decisions, the dealer's steps, voids (R1, R2, R8, R9)
- :mod:`.settlement` the ledger legs of a settled or void round (shared with replay)
- :mod:`.verify` replay of stored rounds and the ledger audit
- :mod:`.dealer` the dealer loop and the demo bots; :mod:`.demo` the demo data
- :mod:`.viewing` what one viewer may see of a round (``public_view``: hidden cards, other bettors)
- :mod:`.accounts` registration, login and its rate limit; :mod:`.history` a player's game recall
- :mod:`.errors` the domain errors (HTTP-like ``status``, ``field``) the web layer maps to JSON
"""
