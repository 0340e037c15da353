"""A player's settings (issue 13), kept with the account so that they follow the player across
logins and devices: the language of the pages and the interval of the optional reality check
(responsible play: a reminder of the session's time and net result every N minutes).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Player
from . import queries
from .errors import BadRequest
from .transaction import reading, transactional

#: the languages the pages are offered in, by locale code, each named in itself
LANGUAGES = {"en": "English", "th": "ไทย", "zh": "简体中文"}
#: the reality check's intervals in minutes (0: off)
REALITY_CHECK_MINUTES = (0, 15, 30, 60)


@dataclass(frozen=True, slots=True)
class Settings:
    """``language`` is None until the player chooses one (the browser's language serves meanwhile)."""

    language: str | None
    reality_check_minutes: int


def _settings(player: Player) -> Settings:
    return Settings(player.language, player.reality_check_minutes)


def check_language(language: object) -> str:
    """One of :data:`LANGUAGES`, or :class:`BadRequest` naming the field."""
    if not isinstance(language, str) or language not in LANGUAGES:
        raise BadRequest(f"language: one of {', '.join(LANGUAGES)}", "language")
    return language


def check_minutes(minutes: object) -> int:
    """One of :data:`REALITY_CHECK_MINUTES` (a whole number, never a bool), or :class:`BadRequest`."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes not in REALITY_CHECK_MINUTES:
        raise BadRequest("reality_check_minutes: one of " + ", ".join(map(str, REALITY_CHECK_MINUTES)),
                         "reality_check_minutes")
    return minutes


@reading
def settings_of(player_id: int) -> Settings:
    """The player's settings (NotFound for an unknown player)."""
    return _settings(queries.get(Player, player_id))


@transactional
def change(player_id: int, *, language: object = None, reality_check_minutes: object = None) -> Settings:
    """Change the settings given (None: keep); both are checked before either is changed, so a
    refused request changes nothing."""
    player = queries.get(Player, player_id)
    checked_language = None if language is None else check_language(language)
    checked_minutes = None if reality_check_minutes is None else check_minutes(reality_check_minutes)
    if checked_language is not None:
        player.language = checked_language
    if checked_minutes is not None:
        player.reality_check_minutes = checked_minutes
    return _settings(player)
