"""What a viewer sees of a round is the public part plus their own part, nothing else (R1, R5):
the public part is the same for everyone, each player's part adds only their bets and their
share of a prize, and only the house sees every bettor."""

from __future__ import annotations

from freezegun import freeze_time

from casino_holdem.extensions import db
from casino_holdem.models import GameRound
from casino_holdem.services import rounds, viewing
from casino_holdem.services.viewing import RoundSight
from support.casino import SECOND, T0, deck_with


def _round_with_a_shared_p3_prize(casino) -> tuple[int, int, int]:
    """Two Progressive bettors, both folded by R8, on a board straight flush (R5: P3 is shared
    by every Progressive bettor, folded or not)."""
    table = casino.table(casino.pool(seed="1000"))
    alice, bob = casino.player(), casino.player()
    round_id = casino.open(table, deck_with("2c 3d", "4h Kd", "9s 8s 7s 6s 5s"))
    for player in (alice, bob):
        rounds.place_bets(player, table, "10", progressive=True, request_id=f"p{player}", now=T0)
    assert casino.run(table, T0 + 10 * SECOND) == ["hole_cards"]
    assert "settled" in casino.run(table, T0 + 20 * SECOND)
    return round_id, alice, bob


def test_r1_r5_each_viewer_gets_the_public_part_and_only_their_own_part(casino) -> None:
    round_id, alice, bob = _round_with_a_shared_p3_prize(casino)
    sight = RoundSight.of(db.session.get(GameRound, round_id))
    assert sight.seen_by(None) == sight.public and sight.public["result"]["awards"] == []
    assert len(sight.public["cards"]["dealer"]) == 2 and sight.public["bettor_count"] == 2
    for player in (alice, bob):
        view = sight.seen_by(player)
        assert set(view) - set(sight.public) == {"you"}
        assert {key: value for key, value in view.items() if key not in ("you", "result")} == \
            {key: value for key, value in sight.public.items() if key != "result"}
        (award,) = view["result"]["awards"]
        assert (award["table"], award["share_of"], "bet_id" in award) == ("P3", 2, False)
        assert view["you"]["player_id"] == player and view["you"]["bet"]["progressive"] == "1"
        assert view == viewing.round_view(round_id, player)


def test_r1_only_the_house_sees_every_bettor_and_the_dealer_stays_hidden_in_play(casino) -> None:
    round_id, alice, bob = _round_with_a_shared_p3_prize(casino)
    house = viewing.house_view(round_id)
    assert [b["player_id"] for b in house["bettors"]] == [alice, bob] and len(house["result"]["awards"]) == 2
    table = casino.table()
    player = casino.player()
    in_play = casino.open(table, now=T0)
    rounds.place_bets(player, table, "10", request_id="b", now=T0)
    casino.run(table, T0 + 10 * SECOND)
    for view in (viewing.house_view(in_play), viewing.round_view(in_play, player), viewing.round_view(in_play, alice)):
        assert view["cards"]["dealer"] == [] and "reveal" not in view and len(view["cards"]["player"]) == 2
    seen_by_alice = viewing.round_view(in_play, alice)
    assert "bettors" not in seen_by_alice and seen_by_alice["you"]["bet"] is None


def test_issue10_a_change_is_seen_by_every_watcher_as_by_themselves_alone(casino) -> None:
    """The views built together for a table's watchers (shared parts built once per currency, the
    bettors' balances read together) equal each one's own page, whatever their currency (R6)."""
    table = casino.table(casino.pool(seed="1000"))
    bettors = [casino.player(currency=currency) for currency in ("USD", "RMB", "USD")]
    watchers = [casino.player(currency=currency) for currency in ("USD", "THB")]
    casino.open(table, deck_with("2c 3d", "4h Kd", "9s 8s 7s 6s 5s"))
    for number, player in enumerate(bettors):
        rounds.place_bets(player, table, "10", progressive=number != 1, request_id=f"b{player}", now=T0)
    known = viewing.viewers_of(bettors + watchers + [10**6])
    assert set(known) == set(bettors + watchers)  # an unknown player is left out
    together = viewing.table_views(table, known).by_viewer
    for viewer in bettors + watchers:
        alone = viewing.table_view(table, viewer)
        assert {**together[viewer], "server_time": None} == {**alone, "server_time": None}
    lobby = viewing.lobby_views(known).by_viewer
    for viewer in bettors + watchers:
        assert {**lobby[viewer], "server_time": None} == {**viewing.lobby_view(viewer, live=True), "server_time": None}


def test_issue10_a_watcher_whose_wallet_moved_has_their_balance_read_afresh(casino) -> None:
    """A posting on a watcher's wallet that no table of theirs shows (a deposit, a bet at a table
    they do not watch) reaches their streams at the next build: a watcher passed with no balance
    has it read, by a table's build and by the lobby's, and the build says which it read; the
    others keep the balance passed in (nobody else's money moved)."""
    from casino_holdem.services import wallet

    table = casino.table()
    casino.open(table)
    moved, still = casino.player(), casino.player()
    known = viewing.viewers_of([moved, still])
    wallet.deposit(moved, "25", "cashier:moved")
    for build in (lambda watchers: viewing.table_views(table, watchers), viewing.lobby_views):
        views = build({moved: (known[moved][0], None), still: known[still]})
        assert views.read == {moved: views.by_viewer[moved]["balance"]}
        assert views.by_viewer[moved]["balance"]["available"] == "1025"
        assert views.by_viewer[still]["balance"] is known[still][1]
        assert build(known).read == {}  # nobody bet here and nobody's wallet moved: nothing read


def test_issue10_the_lobby_stream_carries_what_changes_and_the_lobby_page_the_rest(casino) -> None:
    """Every lobby stream gets a frame each second while the floor plays, and the page already shows
    the tables' settings: a stream's entry is the id, jackpot meter (R5, R6), suspension and round
    of the lobby's own entry, in the viewer's currency."""
    table = casino.table(casino.pool(seed="1000"))
    player = casino.player(currency="THB")
    casino.open(table)
    with freeze_time(T0 + 15 * SECOND):  # R2.1: an empty window's deadline moves on every 10 s
        full, live = viewing.lobby_view(player), viewing.lobby_view(player, live=True)
    for entry, summary in zip(live["tables"], full["tables"], strict=True):
        assert set(entry) == {"id", "jackpot", "suspended", "round"} and entry["round"] is not None
        assert entry == {name: summary[name] for name in entry}
    assert {**live, "tables": None, "server_time": None} == {**full, "tables": None, "server_time": None}
