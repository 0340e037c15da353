"""schemathesis over ``/api/openapi.json`` as a logged-in player (session cookie and CSRF header):
requests that fit the document and requests that break it, against every operation of the API, and
not one server error (issue 10: 29 × 500 in 9,237 requests before the input guards; this test found
10 × 500 in 882 requests on PostgreSQL before them: ids above 2^31-1).

Fitting requests are sent to a real table and its open round (random ids would only ever meet a
404); breaking ones keep whatever ids schemathesis draws.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from hypothesis.strategies import SearchStrategy
from schemathesis import GenerationMode
from schemathesis.generation.case import Case

from support.web import Client, WebCasino

pytestmark = pytest.mark.slow
EXAMPLES = {GenerationMode.POSITIVE: 30, GenerationMode.NEGATIVE: 30}


@dataclass
class Tally:
    """What was sent, and every answer of 500 or more."""

    requests: int = 0
    server_errors: list[str] = field(default_factory=list)


@dataclass
class Player:
    """The logged-in session the cases are sent with; renewed after a case logs it out."""

    casino: WebCasino
    client: Client

    def login(self) -> None:
        self.client = self.casino.client("fuzzer")

    def credentials(self) -> tuple[dict[str, str], dict[str, str]]:
        cookie = self.client.http.get_cookie("session")
        assert cookie is not None
        return {"X-CSRF-Token": self.client.token}, {"session": cookie.value}


def _send(case: Case, *, player: Player, ids: dict[str, int], mode: GenerationMode, tally: Tally) -> None:
    if mode is GenerationMode.POSITIVE and case.path_parameters:
        case.path_parameters = {name: ids.get(name, value) for name, value in case.path_parameters.items()}
    headers, cookies = player.credentials()
    tally.requests += 1
    try:
        response = case.call(headers=headers, cookies=cookies)
    except Exception as error:  # the test app propagates what a client would get as a 500: count it
        tally.server_errors.append(f"{case.method} {case.formatted_path} {case.body!r:.200} -> {error!r:.300}")
        return
    if response.status_code >= 500:
        tally.server_errors.append(f"{case.method} {case.formatted_path} {case.body!r:.200} -> "
                                   f"{response.status_code} {response.text[:200]}")
    if case.method == "DELETE":
        player.login()


def _explore(cases: SearchStrategy[Case], examples: int, send: Callable[[Case], None]) -> None:
    """``examples`` cases of the strategy, derandomized so a run repeats the last one. An operation
    without parameters or body has no request that breaks the document: nothing to send then."""

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=cases)
    def run(case: Case) -> None:
        send(case)

    try:
        run()
    except Unsatisfiable:
        return


def test_schemathesis_finds_no_server_error(casino: WebCasino) -> None:
    casino.player("fuzzer", amount="100000")
    table = casino.table()
    casino.advance(table)
    player = Player(casino, casino.client("fuzzer"))
    round_id = player.client.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    ids = {"table_id": table, "round_id": round_id}
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", casino.app)
    tally = Tally()
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode, examples in EXAMPLES.items():
            _explore(operation.as_strategy(generation_mode=mode), examples,
                     functools.partial(_send, player=player, ids=ids, mode=mode, tally=tally))
    print(f"schemathesis: {tally.requests} requests, {len(tally.server_errors)} server errors")
    assert tally.requests > 400
    assert tally.server_errors == [], "\n".join(tally.server_errors)
