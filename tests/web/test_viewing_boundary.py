"""R1 hidden information, by construction: the web layer gets table and round state only from the
public viewing functions (each built by ``services.viewing.round_seen_by``), never from the rows,
the house's view or the services' internals.

The scan reads every module of ``casino_holdem/web`` and checks each name it takes from
``casino_holdem.services`` (imported, or an attribute of an imported service module) against
the list below. A new use is a deliberate change of this list, reviewed for what it shows.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import casino_holdem.web

WEB = Path(casino_holdem.web.__file__).parent
PACKAGE = ("casino_holdem", "web")
SERVICES = "casino_holdem.services"
#: the rows and the database handle: never imported by the web at all
DATA = ("casino_holdem.models", "casino_holdem.extensions")
#: service module -> the names the web may use from it (None: any public name)
ALLOWED: dict[str, set[str] | None] = {
    "viewing": {"lobby_view", "table_view", "round_view", "me_view"},   # what a player may see
    "history": {"rounds_of", "recall"},                                # game recall, through viewing
    "rounds": {"place_bets", "decide", "disconnect", "rejoin", "MAX_REQUEST_ID"},  # actions: receipts only
    "accounts": {"login", "register", "player", "session_player", "demo_logins", "currencies", "change_password",
                 "TooManyAttempts", "USERNAME", "MIN_PASSWORD"},  # the two limits the API document states
    "operators": {"login", "signed_in", "OperatorView", "Role"},         # the back office's accounts
    "sessions": {"start", "resolve", "revoke", "Principal", "PLAYER", "OPERATOR"},  # who a cookie is
    "logins": {"TooManyAttempts"},
    "wallet": {"PlayerView", "currency_spec"},
    "player_settings": {"settings_of", "change", "Settings", "LANGUAGES", "REALITY_CHECK_MINUTES"},  # issue 13
    "paytable_figures": {"decimal_text", "fraction_of"},  # formatting a paytable's public exact returns
    "errors": None,
}
MODULE = "*"


def _absolute(module: str | None, level: int) -> str:
    """An import's module as an absolute name, seen from a module of ``casino_holdem.web``."""
    if level == 0:
        return module or ""
    return ".".join([*PACKAGE[: len(PACKAGE) - level + 1], *([module] if module else [])])


def uses(source: str) -> Iterator[tuple[int, str, str]]:
    """(line, module, name) for everything a web module takes from the services and the data
    layer: a service module itself (name ``*``), a name imported from one, an attribute of an
    imported service module, or anything of the models or the database handle."""
    tree = ast.parse(source)
    modules: dict[str, str] = {}  # local name -> service module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            origin = _absolute(node.module, node.level)
            for alias in node.names:
                target = f"{origin}.{alias.name}"
                if origin == SERVICES:
                    modules[alias.asname or alias.name] = alias.name
                    yield node.lineno, alias.name, MODULE
                elif origin.startswith(SERVICES + "."):
                    yield node.lineno, origin.rsplit(".", 1)[1], alias.name
                elif origin.startswith(DATA) or target.startswith(DATA):
                    yield node.lineno, origin, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith((SERVICES, *DATA)):
                    yield node.lineno, alias.name, MODULE
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            yield node.lineno, modules[node.value.id], node.attr


def refused(module: str, name: str) -> bool:
    if module not in ALLOWED:
        return True
    allowed = ALLOWED[module]
    return name != MODULE and (name.startswith("_") or (allowed is not None and name not in allowed))


def test_r1_the_web_reads_state_only_through_the_public_viewing_functions() -> None:
    found = {(path.name, line, module, name) for path in sorted(WEB.glob("*.py"))
             for line, module, name in uses(path.read_text())}
    assert {("api.py", "viewing", "table_view"), ("events.py", "viewing", "table_view"),
            ("table.py", "rounds", "rejoin")} <= {(file, module, name) for file, _, module, name in found}
    assert sorted(f"{file}:{line}: {module}.{name}"
                  for file, line, module, name in found if refused(module, name)) == []


def test_the_scan_catches_the_house_view_the_rows_and_the_internals() -> None:
    source = ("from ..services import viewing, queries\nfrom ..services.viewing import house_round\n"
              "from ..models import GameRound\nfrom .. import extensions\nfrom ..services.rounds import _connection\n"
              "import casino_holdem.services.round_rows\nviewing.house_view(1)\nviewing.table_view(1, 2)\n")
    assert sorted((module, name) for _, module, name in uses(source) if refused(module, name)) == [
        ("casino_holdem", "extensions"), ("casino_holdem.models", "GameRound"),
        ("casino_holdem.services.round_rows", MODULE), ("queries", MODULE), ("rounds", "_connection"),
        ("viewing", "house_round"), ("viewing", "house_view")]
