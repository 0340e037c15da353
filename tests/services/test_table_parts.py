"""The table page's panels (issue 13): the progressive panel's last jackpot wins (R5: amount,
prize, table, date and how many shared, in each viewer's currency, R6) and the player's settings
kept with the account."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import func, select

from casino_holdem.extensions import db
from casino_holdem.models import AwardRecord, GameRound, GameTable
from casino_holdem.services import player_settings, rounds, viewing
from casino_holdem.services.errors import BadRequest
from casino_holdem.services.table_parts import LAST_WINS
from support.casino import SECOND, T0, deck_with

#: R5: a board straight flush is P3's, shared by every Progressive bettor (R8 folds them both here)
BOARD_STRAIGHT_FLUSH = deck_with("2c 3d", "4h Kd", "9s 8s 7s 6s 5s")


def _p3_win(casino, table: int, bettors: list[int], start=T0) -> int:
    round_id = casino.open(table, BOARD_STRAIGHT_FLUSH, now=start)
    for player in bettors:
        rounds.place_bets(player, table, "10", progressive=True, request_id=f"p{player}-{round_id}", now=start)
    casino.run(table, start + 10 * SECOND)
    assert "settled" in casino.run(table, start + 20 * SECOND)
    return round_id


def test_r5_r6_the_last_jackpot_win_in_each_viewers_currency_at_every_table_of_the_pool(casino) -> None:
    pool = casino.pool(seed="100000")
    won_at, elsewhere = casino.table(pool), casino.table(pool)
    alice, bob = casino.player(), casino.player(currency="RMB", amount="5000")
    round_id = _p3_win(casino, won_at, [alice, bob])
    base = db.session.scalar(select(func.sum(AwardRecord.base_amount)).where(AwardRecord.round_id == round_id))
    finished = db.session.get(GameRound, round_id).finished_at
    name = db.session.get(GameTable, won_at).name
    for viewer, multiplier in ((alice, 1), (bob, 5)):
        (win,) = viewing.table_view(elsewhere, viewer)["jackpot_wins"]
        assert {key: value for key, value in win.items() if key != "amount"} == {
            "round_id": round_id, "prize": "P3", "hand": "straight_flush", "street": None, "share_of": 2,
            "table": name, "at": finished.isoformat()}
        assert Decimal(win["amount"]) == base * multiplier > 0


def test_r5_a_table_on_another_pool_shows_none_of_its_wins(casino) -> None:
    alice = casino.player()
    _p3_win(casino, casino.table(casino.pool(seed="100000")), [alice])
    assert viewing.table_view(casino.table(casino.pool(seed="100000")), alice)["jackpot_wins"] == []


def test_r5_only_the_last_wins_newest_first_each_shown_as_soon_as_it_is_won(casino) -> None:
    """Issue 10: the wins are read again only after a new prize share, and always then."""
    pool = casino.pool(seed="1000000")
    alice = casino.player(amount="100000")
    watched, played = casino.table(pool), []
    for index in range(LAST_WINS + 1):
        played.append(_p3_win(casino, casino.table(pool), [alice], start=T0 + index * 60 * SECOND))
        shown = [win["round_id"] for win in viewing.table_view(watched, alice)["jackpot_wins"]]
        assert shown == played[::-1][:LAST_WINS]


def test_settings_are_kept_with_the_account(casino) -> None:
    alice = casino.player()
    assert player_settings.settings_of(alice) == player_settings.Settings(None, 0)
    player_settings.change(alice, language="th")
    assert player_settings.change(alice, reality_check_minutes=30) == player_settings.Settings("th", 30)


@pytest.mark.parametrize(("change", "field"), [
    ({"language": "xx"}, "language"), ({"language": 7}, "language"),
    ({"reality_check_minutes": 7}, "reality_check_minutes"), ({"reality_check_minutes": "15"}, "reality_check_minutes"),
    ({"reality_check_minutes": True}, "reality_check_minutes"),
    ({"language": "zh", "reality_check_minutes": -15}, "reality_check_minutes"),
])
def test_bad_settings_are_refused_naming_the_field_and_change_nothing(casino, change, field) -> None:
    alice = casino.player()
    player_settings.change(alice, language="th", reality_check_minutes=15)
    with pytest.raises(BadRequest) as refused:
        player_settings.change(alice, **change)
    assert refused.value.field == field
    assert player_settings.settings_of(alice) == player_settings.Settings("th", 15)


def test_r3_r7_the_results_strip_names_each_finished_rounds_hands(casino) -> None:
    table = casino.table(casino.pool(seed="100000"))
    alice = casino.player()
    _p3_win(casino, table, [alice])
    (entry,) = viewing.table_view(table, alice)["recent"]
    straight_flush = {"id": "Straight Flush, %(high)s high", "args": {"high": "Nine"},
                      "text": "Straight Flush, Nine high"}
    assert entry == {"number": 1, "result": "tie", "void": None, "player": straight_flush, "dealer": straight_flush}
