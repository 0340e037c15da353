"""Languages of the players' pages (issue 13): English, Thai and Simplified Chinese through
Flask-Babel and gettext catalogues (``casino_holdem/translations/<lang>/LC_MESSAGES``).

The language is the player's choice: kept with a logged-in player's account (so it follows them
across logins and devices, :mod:`~casino_holdem.services.player_settings`) and in a cookie
(``lang``, for the pages before logging in); without either, the browser's preferred language.
The pages' JavaScript fetches the same catalogue as JSON from ``/i18n/<lang>.json``
(:func:`catalogue`), so one catalogue translates both. A catalogue whose compiled ``.mo`` is missing or older than its
``.po`` (a fresh checkout) is compiled when the app starts.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import Blueprint, Flask, abort, jsonify, redirect, request
from flask_babel import Babel, get_locale, refresh
from werkzeug.wrappers import Response

from ..services import player_settings
from ..services.player_settings import LANGUAGES
from .security import current_player

COOKIE = "lang"
#: a year: the cookie only speaks for the player until they log in
COOKIE_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The logged-in player's chosen language, else this browser's choice (cookie), else the
    browser's best match, else English."""
    player = current_player()
    if player is not None and player.language in LANGUAGES:
        return player.language
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def compile_catalogues(folder: Path = TRANSLATIONS) -> list[Path]:
    """Compile every ``messages.po`` whose ``.mo`` is missing or older; returns those written."""
    written = []
    for po in sorted(folder.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalogue = read_po(source)
        try:
            with mo.open("wb") as target:
                write_mo(target, catalogue)
        except OSError:  # a read-only install: its shipped .mo serves
            continue
        written.append(mo)
    return written


def js_messages(locale: str) -> dict[str, str]:
    """A language's catalogue for the pages' scripts: message id → translation (none for English,
    the language of the message ids)."""
    if locale == "en":
        return {}
    translations = Translations.load(str(TRANSLATIONS), [locale])
    return {key: value for key, value in translations._catalog.items() if isinstance(key, str) and key and value}


@bp.get("/i18n/<locale>.json")
def catalogue(locale: str) -> Response:
    """The pages' scripts fetch their language's catalogue here (static/common.js), one URL per
    language, so browsers cache it rather than receive it inside every page."""
    if locale not in LANGUAGES:
        abort(404)
    response = jsonify(js_messages(locale))
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    return response


def remember_language(response: Response, language: str) -> None:
    """This browser remembers the language too (the login page has no player to ask)."""
    response.set_cookie(COOKIE, language, max_age=COOKIE_AGE, samesite="Lax")


@bp.post("/language")
def choose_language() -> Response:
    """Remember the player's language (with their account when logged in, and in this browser)
    and go back to the page they were on."""
    language = request.form.get("language", "")
    back = request.form.get("next", "/")
    response = redirect(back if back.startswith("/") and not back.startswith("//") else "/")
    if language in LANGUAGES:
        player = current_player()
        if player is not None:
            player_settings.change(player.id, language=language)
        remember_language(response, language)
    return response


def register(app: Flask) -> None:
    compile_catalogues()
    Babel(app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS))
    app.before_request(refresh)  # each request picks its language afresh (an app context may outlive one)
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, current_locale=lambda: str(get_locale()))
    app.register_blueprint(bp)
