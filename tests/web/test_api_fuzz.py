"""Bad input on the API is a 4xx with a JSON reason and changes nothing — never a 500 (brief:
"Bad input gets a clear error … never a traceback"). Random bodies against every POST endpoint."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino_holdem.services import verify, wallet
from support.web import WebCasino

VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10, 10**20), st.floats(allow_nan=True),
                   st.text(max_size=8), st.sampled_from(["10", "0.001", "1e400", "-5", "fold", "flop", "bet", "USD"]),
                   st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
FIELDS = ("ante", "bonus", "progressive", "request_id", "action", "username", "password", "currency")
BODIES = st.one_of(VALUES, st.fixed_dictionaries({}, optional={key: VALUES for key in FIELDS}))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES, target=st.sampled_from(["/api/tables/{table}/bets", "/api/rounds/{round}/decisions",
                                            "/api/session", "/api/players", "/api/tables/{table}/leave",
                                            "/api/tables/{table}/join", "/api/tables/999/bets",
                                            "/api/rounds/999/decisions"]))
def test_random_bodies_get_a_json_4xx_or_succeed(casino: WebCasino, body: Any, target: str) -> None:
    if not hasattr(casino, "fuzz"):
        player = casino.player("fuzzer")
        table = casino.table()
        casino.advance(table)
        casino.fuzz = (casino.client("fuzzer"), table, player)  # type: ignore[attr-defined]
    client, table, player = casino.fuzz  # type: ignore[attr-defined]
    round_id = client.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    before = wallet.balance(player)
    response = client.post(target.format(table=table, round=round_id), body)
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        error = response.get_json()["error"]
        assert error["message"] and error["code"]
        assert wallet.balance(player) == before
    assert verify.audit_ledger() == []
