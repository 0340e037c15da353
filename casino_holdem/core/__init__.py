"""The pure game core: no Flask, no SQLAlchemy, no clock (``now`` is a parameter), no file I/O.

Where each rule of the rule book is implemented:

- R1 cards and dealing: :mod:`.cards` (``Card``, ``FULL_DECK``, ``ensure_distinct``),
  :mod:`.shuffle` (``secure_shuffle``, the deck commitment), :data:`.phases.DEALING_ORDER`,
  ``Round.cards``; the table cap: ``Round.verify_bet``.
- R2 the round: :data:`.phases.PHASES` (one ``PhaseRules`` per phase); R2.1 bets
  ``Round.verify_bet``; R2.2-R2.6 ``Round.advance``; R2.3-R2.5 decisions ``Round.verify_decision``
  and ``Round.act``, street bets ``PhaseRules.bet``; R2.7 ``Round.settle``, :func:`.rules.settle`.
- R3 the main game: :func:`.rules.main_result`, :func:`.rules.settle_main_bets`.
- R4 the Bonus: :func:`.rules.bonus_line`, :func:`.rules.settle_bonus`.
- R5 the Progressive: :mod:`.progressive` (:func:`.progressive.progressive_hits`, P1
  :func:`.progressive.royal_street`, :func:`.progressive.settle_progressive`,
  :func:`.progressive.contribution`, :func:`.progressive.seed_top_up`); the prize tables
  :data:`.paytable.P2_HANDS`, :data:`.paytable.P3_HANDS`.
- R6 currencies: :func:`.progressive.share_prize`, :func:`.money.round_down`, ``CurrencySpec`` in
  :mod:`.paytable`; units and scaled limits of bets ``Round.verify_bet``.
- R7 hand ranking: :mod:`.evaluator` (``evaluate``, ``strength_of``), its classes and lookup tables
  :mod:`.hand_classes` (``Category``).
- R8 decisions not made: ``PhaseRules.automatic`` in :mod:`.phases`,
  ``Round.decide_automatically``, ``Round.disconnect``; the decision window
  ``Round.verify_decision``.
- R9 void rounds: :func:`.rules.settle_void`, ``Round.void``; live incidents and their rulings
  :mod:`.incidents`; partial deals of a scenario in :mod:`.scenario`.

The records a settlement takes and returns are in :mod:`.settlement` (handed on by :mod:`.rules`).
Errors: every one is a :class:`.errors.CoreError` (a ``ValueError``) naming its field and rule.
The same rules vectorised for the simulator live in ``compliance/batch_rules.py``.
"""
