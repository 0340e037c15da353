"""The authorization matrix of the back office, read from the app's route table (issue 11).

:func:`operator_routes` lists every route under ``/operator``, ``/api/operator`` and ``/api/dealer``
(issue 12) with the roles its :func:`~casino_holdem.web.operator_auth.operator_required` guard
declared (``None``: an unguarded, public route such as the sign-in). :func:`expected` says what each visitor should get,
so a test can walk every route × :data:`VISITORS` without a hand-kept list that could miss one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import Flask

from casino_holdem.web.operator_auth import ROLES_ATTRIBUTE

if TYPE_CHECKING:
    from .web import Client


PREFIXES = ("/operator/", "/api/operator/", "/api/dealer/")
ANONYMOUS, PLAYER = "anonymous", "player"
ROLES = ("pit", "manager", "auditor", "dealer")
VISITORS = (ANONYMOUS, PLAYER, *ROLES)
#: what a refused visitor gets: an API answers 401/403; a page sends the anonymous to sign in
ALLOWED, SIGN_IN_FIRST, SIGN_IN_PAGE, FORBIDDEN = "allowed", 401, 302, 403


@dataclass(frozen=True)
class OperatorRoute:
    rule: str
    endpoint: str
    methods: frozenset[str]
    roles: frozenset[str] | None

    @property
    def is_api(self) -> bool:
        return self.rule.startswith("/api/")


def operator_routes(app: Flask) -> list[OperatorRoute]:
    """Every back-office route, sorted by rule, with its declared roles."""
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(PREFIXES) and rule.rule != "/operator":
            continue
        roles = getattr(app.view_functions[rule.endpoint], ROLES_ATTRIBUTE, None)
        routes.append(OperatorRoute(rule.rule, rule.endpoint, frozenset(rule.methods or ()) - {"HEAD", "OPTIONS"},
                                    None if roles is None else frozenset(str(role) for role in roles)))
    return sorted(routes, key=lambda route: route.rule)


def expected(route: OperatorRoute, visitor: str) -> str | int:
    """:data:`ALLOWED`, or the status a guarded route gives ``visitor`` (one of :data:`VISITORS`)."""
    if route.roles is None or visitor in route.roles:
        return ALLOWED
    if visitor == ANONYMOUS:
        return SIGN_IN_FIRST if route.is_api else SIGN_IN_PAGE
    return FORBIDDEN


def check_admissions(app: Flask, client: Client, who: str, endpoints: tuple[str, ...]) -> int:
    """Send every method of every route whose endpoint starts with one of ``endpoints`` as ``who``
    (an empty JSON body, ids 1): a refused visitor gets exactly :func:`expected`'s status, an
    allowed one is never refused by the guard (it may still be a 400 or a 404). Returns how many
    routes were checked."""
    routes = [route for route in operator_routes(app) if route.endpoint.startswith(endpoints)]
    for route in routes:
        path = re.sub(r"<int:\w+>", "1", route.rule)
        for method in route.methods:
            status = client.send(method, path, {}).status_code
            want = expected(route, who)
            if want == ALLOWED:
                assert status < 500 and status not in (401, 403) and status != 302, (route.rule, method, who, status)
            else:
                assert status == want, (route.rule, method, who, status)
    return len(routes)
