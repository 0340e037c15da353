"""Every error the core raises, in one place: each is a :class:`ValueError` that names the input
``field`` at fault and the ``rule`` it breaks, so the services map them to HTTP 4xx and the
commands to exit 2 without reading messages.

The message a person reads is ``<rule>: <problem>`` for a rule violation and
``<field>: <problem>`` for bad input; ``problem`` is also kept alone, so an error about a part of
a larger input can be restated for the whole (``bettors[0].ante: …``) without parsing messages.

>>> error = RuleViolation("R2.1", "betting is closed for this round")
>>> str(error), error.rule, error.field
('R2.1: betting is closed for this round', 'R2.1', None)
>>> bet = InvalidBet("R6", "ante 0.001: not a whole number of the smallest USD unit 0.01", "ante")
>>> isinstance(bet, CoreError) and isinstance(bet, ValueError), bet.field
(True, 'ante')
>>> str(InvalidAmount("pool", "'x' is not a decimal number"))
"pool: 'x' is not a decimal number"
"""

from __future__ import annotations

from collections.abc import Sequence


class CoreError(ValueError):
    """The base of every core error. ``field`` names the input at fault (``ante``,
    ``bettors[0].decisions.flop``, ``paytable``) or is None when the operation as a whole is
    refused; ``rule`` is the rule book section the input breaks (``R2.3``), or None when the
    input is malformed (not a number, not TOML) rather than against a rule."""

    def __init__(self, problem: str, *, field: str | None = None, rule: str | None = None) -> None:
        self.problem, self.field, self.rule = problem, field, rule
        super().__init__(self._message())

    def _message(self) -> str:
        return f"{self.field}: {self.problem}" if self.field else self.problem


class RuleViolation(CoreError):
    """An operation the rules do not allow now; the message starts with the rule (``R2.3: …``)."""

    def __init__(self, rule: str, problem: str, *, field: str | None = None) -> None:
        super().__init__(problem, field=field, rule=rule)

    def _message(self) -> str:
        return f"{self.rule}: {self.problem}"


class InvalidBet(RuleViolation):
    """A bet outside the limits, the currency's unit or the rules (R2.1, R6); ``field`` names
    the bet at fault (``ante``, ``bonus``, ``currency``) so callers can point at it."""

    def __init__(self, rule: str, problem: str, field: str) -> None:
        super().__init__(rule, problem, field=field)


class InvalidCard(CoreError):
    """A card that cannot be read, or a set of cards that breaks R1 (duplicates, wrong count)."""

    def __init__(self, problem: str, *, field: str | None = None) -> None:
        super().__init__(problem, field=field, rule="R1")


class InvalidAmount(CoreError):
    """An amount that is not a finite decimal such as ``"10.50"`` (malformed: it breaks no rule)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(problem, field=field)


class InvalidPaytable(CoreError):
    """A paytable that cannot be used; ``problems`` holds one line per problem, each naming its
    key, and ``source`` the file (or reference) they were found in."""

    def __init__(self, problems: Sequence[str], source: str = "paytable") -> None:
        self.problems, self.source = list(problems), source
        super().__init__("; ".join(problems), field="paytable")

    def _message(self) -> str:
        return f"{self.source}: {self.problem}"


class ScenarioError(CoreError):
    """Bad scenario input, ``field: problem``. The CLI prints it as one line and exits 2."""

    def __init__(self, field: str, problem: str, *, rule: str | None = None) -> None:
        super().__init__(problem, field=field, rule=rule)
