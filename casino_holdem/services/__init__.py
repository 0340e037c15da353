"""Services: one module per aggregate, each public function one database transaction.

- :mod:`.wallet` players, ledger accounts, double-entry postings, deposits, balances
- :mod:`.jackpot` pools, contributions, prizes, seed top-ups, audited corrections (R5, R6, R9)
- :mod:`.tables` table administration: create, list, open and close tables
- :mod:`.rounds` playing a round: bets (R2.1), decisions (R2.3-R2.5), leaving and coming back (R8)
- :mod:`.dealer_steps` the dealer's steps: open, deal each street, close windows (R8), settle (R3-R6)
- :mod:`.windows` when a table's next step may come: empty betting windows (R2.1, R8), the
  showdown pause (R2.7)
- :mod:`.voids` voiding a round (R9)
- :mod:`.round_rows` stored rounds ↔ the core's ``Round`` (load, save, results)
- :mod:`.round_postings` a round's ledger postings: street bets, settlement, void (shared with replay)
- :mod:`.queries` the named queries: a row by id or ``NotFound``, locks, a table's latest round
- :mod:`.viewing` what one viewer may see (``round_seen_by``: hidden cards, other bettors), and
  what the house sees
- :mod:`.history` a player's game recall; :mod:`.accounts` registration, login and its rate limit
- :mod:`.verify` replay of stored rounds and the ledger audit
- :mod:`.dealer` the dealer loop and the demo bots; :mod:`.demo` the demo data
- :mod:`.audit` the append-only audit log; :mod:`.transaction` one transaction per service call
- :mod:`.errors` the domain errors (HTTP-like ``status``, ``field``) and the one translation of
  core refusals into them
"""
