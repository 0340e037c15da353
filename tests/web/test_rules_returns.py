"""Issue 13: the players' rules panel shows the return to player of each bet from the exact
figures (``rtp``) of the table's paytable, or that they are still being computed; the table's
JSON state carries the same (null while computing)."""

from __future__ import annotations

from casino_holdem.services import paytable_figures
from support.figures import sample_figures
from support.web import WebCasino


def test_the_rules_panel_shows_each_bets_return_once_computed(casino: WebCasino) -> None:
    casino.player("somchai")
    table = casino.table()
    client = casino.client("somchai")
    state = client.get(f"/api/tables/{table}").get_json()
    assert state["rules"]["returns"] is None
    page = client.get(f"/tables/{table}").get_data(as_text=True)
    assert 'id="rules-returns-computing"' in page and 'id="rules-returns"' not in page

    paytable_figures.record(state["table"]["paytable"]["sha256"], "engine", sample_figures())
    returns = client.get(f"/api/tables/{table}").get_json()["rules"]["returns"]
    assert returns == {"strategy": "optimal", "bets": dict.fromkeys(("ante", "flop", "turn", "river"), "99.00"),
                       "main": "99.00", "bonus": "91.46", "progressive": "95.00"}      # R3, R4, R5
    page = client.get(f"/tables/{table}").get_data(as_text=True)
    panel = page[page.index('id="rules-returns"'):]
    assert "rules-returns-computing" not in page
    assert all(text in panel for text in ("River bet", "99.00 %", "91.46 %", "95.00 %"))


def test_the_returns_read_in_the_players_language(casino: WebCasino) -> None:
    casino.player("somchai")
    table = casino.table()
    client = casino.client("somchai")
    client.http.post("/language", data={"language": "th", "next": "/", "csrf_token": client.refresh_token()})
    page = client.get(f"/tables/{table}").get_data(as_text=True)
    assert "อัตราการจ่ายคืนผู้เล่น" in page and "กำลังคำนวณ" in page
