"""Issue 10: the event bus backends behind one interface, and publishing once, after the commit
that made the change (a rolled-back transaction publishes nothing)."""

from __future__ import annotations

import datetime as dt
import queue
from collections.abc import Iterator
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_holdem import settings
from casino_holdem.events import LOBBY, player_topic, players_named, players_only, table_topic, tables_named
from casino_holdem.events.bus import Bus, LocalBus, PostgresBus, RedisBus, messages
from casino_holdem.services import dealer_steps
from support.app import POSTGRES_URL
from support.casino import T0
from support.web import WebCasino

REDIS_URL: str | None = settings.value("CASINO_TEST_REDIS_URL")
CEILING = 30.0


def _postgres() -> Bus:
    return PostgresBus(settings.database_url(POSTGRES_URL or "").replace("postgresql+psycopg://", "postgresql://"))


BACKENDS = [
    pytest.param(LocalBus, id="in-process"),
    pytest.param(lambda: RedisBus(REDIS_URL or ""), id="redis",
                 marks=pytest.mark.skipif(not REDIS_URL, reason="CASINO_TEST_REDIS_URL is not set")),
    pytest.param(_postgres, id="postgres", marks=[
        pytest.mark.postgres, pytest.mark.skipif(not POSTGRES_URL, reason="CASINO_TEST_DATABASE_URL is not set")]),
]


@pytest.fixture(params=BACKENDS)
def bus(request: pytest.FixtureRequest) -> Iterator[Bus]:
    made = request.param()
    yield made
    made.close()


def _received(bus: Bus) -> queue.Queue[frozenset[str]]:
    inbox: queue.Queue[frozenset[str]] = queue.Queue()
    bus.subscribe(inbox.put)
    return inbox


def _next(inbox: queue.Queue[frozenset[str]]) -> frozenset[str]:
    return inbox.get(timeout=CEILING)


def test_a_published_set_of_topics_reaches_every_subscriber(bus: Bus) -> None:
    first, second = _received(bus), _received(bus)
    bus.ping()
    # a listening connection may come up a moment after subscribe: publish until it is heard
    for _ in range(int(CEILING / 0.2)):
        bus.publish({table_topic(7), LOBBY})
        try:
            got = first.get(timeout=0.2)
            break
        except queue.Empty:
            continue
    assert got == {"table:7", "lobby"}
    assert _next(second) == {"table:7", "lobby"}


def test_unsubscribed_callbacks_hear_nothing() -> None:
    bus = LocalBus()
    heard: list[frozenset[str]] = []
    remove = bus.subscribe(heard.append)
    bus.publish({"lobby"})
    remove()
    bus.publish({"lobby"})
    assert heard == [frozenset({"lobby"})]


@pytest.fixture
def published(db, app) -> list[frozenset[str]]:
    heard: list[frozenset[str]] = []
    app.extensions["casino_bus"] = LocalBus()
    app.extensions["casino_bus"].subscribe(heard.append)
    return heard


def test_a_bet_publishes_its_table_the_lobby_and_its_player_once_after_commit(app, published) -> None:
    """R2.1: a bet changes only its player's rows: its table is published as changed by players
    only (the streams may show it with the other bettors' bets, issue 10), and its player, whose
    wallet it moved (their other streams show the balance)."""
    from casino_holdem.services.rounds import place_bets

    casino = WebCasino(app)
    table = casino.table()
    dealer_steps.advance(table, T0)
    player = casino.player("alice")
    published.clear()
    place_bets(player, table, Decimal("10"), Decimal(0), False, request_id="r1", now=T0)
    assert published == [frozenset({players_only(table_topic(table)), LOBBY, player_topic(player)})]


def test_r8_the_dealers_step_and_a_moved_deadline_are_published_for_at_once(app, published) -> None:
    """R8: the first bet of a round whose first window went by empty moves its deadline, and the
    dealer's step deals the cards: both change the round, so its table's own topic is published."""
    from casino_holdem.services.rounds import decide, place_bets

    casino = WebCasino(app)
    table = casino.table(betting_seconds=10)
    dealer_steps.advance(table, T0)
    late = T0 + dt.timedelta(seconds=11)
    player = casino.player("alice")
    published.clear()
    receipt = place_bets(player, table, Decimal("10"), Decimal(0), False, request_id="r1", now=late)
    assert published == [frozenset({table_topic(table), LOBBY, player_topic(player)})]
    published.clear()
    assert dealer_steps.advance(table, late + dt.timedelta(days=1)).event == "hole_cards"
    assert table_topic(table) in published[0]
    published.clear()
    decide(player, receipt.round_id, "flop", request_id="d1", now=late + dt.timedelta(days=1, seconds=1))
    assert published == [frozenset({players_only(table_topic(table)), LOBBY, player_topic(player)})]  # R2.3


@pytest.mark.parametrize(("topics", "tables"), [
    ({"table:7", "lobby"}, {7}),
    ({"table:7/players", "table:12"}, {7, 12}),
    ({"lobby", "*"}, set()),
])
def test_the_tables_a_set_of_topics_names(topics: set[str], tables: set[int]) -> None:
    assert tables_named(frozenset(topics)) == tables


@pytest.mark.parametrize(("topics", "players"), [
    ({"player:3", "table:7", "lobby"}, {3}),
    ({"player:3", "player:12", "table:7/players"}, {3, 12}),
    ({"lobby", "*"}, set()),
])
def test_the_players_a_set_of_topics_names(topics: set[str], players: set[int]) -> None:
    assert players_named(frozenset(topics)) == players


def test_a_deposit_publishes_its_player_alone(app, published) -> None:
    """A deposit changes no table: only the player's open streams (their lobby's among them)
    have a balance to show (issue 10)."""
    from casino_holdem.services import wallet

    player = WebCasino(app).player("alice")
    published.clear()
    wallet.deposit(player, "25", "cashier:1")
    assert published == [frozenset({player_topic(player)})]


@given(st.sets(st.integers(min_value=1, max_value=2**40)), st.integers(min_value=20, max_value=200))
def test_a_set_of_topics_is_sent_in_messages_under_the_limit_and_read_back_whole(players: set[int], limit: int) -> None:
    """A settlement of a full table names every bettor's wallet: PostgreSQL's NOTIFY refuses a
    payload of 8,000 bytes, so the topics go in as many messages as they need, each under it."""
    topics = {player_topic(player) for player in players} | {LOBBY}
    sent = messages(topics, limit)
    assert all(0 < len(message) <= limit for message in sent)
    assert frozenset().union(*(frozenset(message.split()) for message in sent)) == topics
    assert sum(len(message.split()) for message in sent) == len(topics)


def test_a_refused_bet_publishes_nothing(app, published) -> None:
    from casino_holdem.services.errors import ServiceError
    from casino_holdem.services.rounds import place_bets

    casino = WebCasino(app)
    table = casino.table()
    dealer_steps.advance(table, T0)
    player = casino.player("alice", amount="5")
    published.clear()
    with pytest.raises(ServiceError):
        place_bets(player, table, Decimal("10"), Decimal(0), False, request_id="r1", now=T0)
    assert published == []
