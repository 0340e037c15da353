"""Issue 10: what the hot paths ask of the database, in statements.

A bet (R2.1), a decision (R2.3) and the session lookup every request makes are each counted, so a
change that adds reads or writes to them shows here before it shows in ``bench/load.py``. The
budgets are the counts measured on SQLite, and on PostgreSQL where it takes fewer (a statement's
CPU and what it means for the floor's figures: ``bench/request_cost.py`` and the README)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import event, select

from casino_holdem.models import AccountKind, AuditEntry, Bet
from casino_holdem.services import accounts, queries, rounds, sessions, verify, viewing, wallet
from casino_holdem.services.errors import NotFound
from casino_holdem.services.transaction import transactional
from support.casino import SECOND, T0

#: statements per call once the round's and the pool's accounts exist (a later bettor's case),
#: counting the ``BEGIN IMMEDIATE`` that starts a writing transaction on SQLite
BUDGET = {"bet with the Progressive": 22, "flop decision": 11, "session and player": 2,
          "a table's state for its streams": 10, "a round's recall": 6}
#: PostgreSQL, the production database, writes a ledger transaction sealed, its postings and the
#: balances of the players' side in one statement (``wallet.post``), with what goes in beside it
#: (an audit entry, a bet's Flop stake: its ``also``), and starts a transaction without a
#: statement of its own
POSTGRESQL_BUDGET = {**BUDGET, "bet with the Progressive": 11, "flop decision": 4}


def budget(db: Any, name: str) -> int:
    return (POSTGRESQL_BUDGET if db.engine.dialect.name == "postgresql" else BUDGET)[name]


@contextmanager
def counted(db: Any) -> Iterator[list[str]]:
    """The statements the app's engine sends inside the block."""
    sent: list[str] = []

    def record(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        sent.append(statement)

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(db.engine, "before_cursor_execute", record)


@pytest.fixture
def betting(casino) -> tuple[int, int, int]:
    """A table taking bets with one bettor already in (their accounts exist), and a second player."""
    first, second, table = casino.player(), casino.player(), casino.table(casino.pool("100"))
    casino.open(table)
    rounds.place_bets(first, table, "10", "0", True, request_id="first", now=T0)
    return second, table, first


def test_r2_1_a_bet_stays_within_its_statement_budget(db, betting) -> None:
    player, table, _ = betting
    queries.player_currency(player)  # known to the process: it bet or looked at a table before
    with counted(db) as sent:
        rounds.place_bets(player, table, "10", "0", True, request_id="second", now=T0 + SECOND)
    assert len(sent) <= budget(db, "bet with the Progressive"), "\n".join(sent)
    assert not [statement for statement in sent if "FROM players" in statement]


def test_r6_a_players_currency_is_read_once_by_a_process_and_an_unknown_player_is_refused(db, casino) -> None:
    """Issue 10: a bet and a table's state need only the player's account currency (R6), which is
    fixed when the account opens, so each process reads it once (``queries.player_currency``)."""
    player = casino.player(currency="THB")
    with counted(db) as first:
        assert queries.player_currency(player) == "THB"
    with counted(db) as again:
        assert queries.player_currency(player) == "THB"
    assert len([statement for statement in first if "FROM players" in statement]) == 1, first
    assert again == []
    with pytest.raises(NotFound, match="player: no player 9999"):
        queries.player_currency(9999)


#: the statements that end a Progressive bet, from the one that locks the round's in-play account
#: on: the contribution's ledger transaction, the pool's row and its movement, the shared accounts
#: in id order. PostgreSQL writes the transaction sealed with its postings and the players' side's
#: balances, the pool with its movement, and the shared accounts, one statement each (``wallet.post``,
#: ``jackpot.move``)
CONTRIBUTION_END = {
    "sqlite": ["UPDATE ledger_accounts SET", "INSERT INTO ledger_transactions", "INSERT INTO postings",
               "UPDATE ledger_transactions SET", "UPDATE jackpot_pools SET", "INSERT INTO pool_movements",
               *["UPDATE ledger_accounts SET"] * 3],
    "postgresql": ["WITH new_transaction AS", "WITH pool_moved AS", "UPDATE ledger_accounts SET"]}


def test_r5_a_progressive_bet_takes_its_tables_and_the_pools_shared_rows_in_its_last_statements(db, betting) -> None:
    """Issue 10, R5: the round's in-play account (every bettor of the table), the pool row (every
    linked table) and the exchange and pool accounts (every table) are each locked by the statement
    that adds to them, all at the bet's end in the lock order of ``transaction.py``: only the
    contribution's ledger transaction and the pool's movement are written among them, so a bet
    holds them for a few statements, not for its two postings."""
    player, table, _ = betting
    with counted(db) as sent:
        rounds.place_bets(player, table, "10", "0", True, request_id="second", now=T0 + SECOND)
    kinds = [" ".join(statement.split()[:3]) for statement in sent]
    end = CONTRIBUTION_END[db.engine.dialect.name]
    assert kinds[-len(end):] == end, "\n".join(sent)


def test_a_deferred_posting_never_commits_without_its_accounts_moved(db, casino) -> None:
    """The ledger's stored balances always equal the sum of their postings: a posting that leaves
    its accounts to the next one (``defer``) and has no next one is refused with its transaction."""
    player = casino.player()
    before = wallet.balance(player).balance

    @transactional
    def orphan() -> None:
        own = wallet.player_wallet(player, "USD")
        cashier = wallet.house_account(AccountKind.CASHIER, "USD")
        wallet.post("deposit", [wallet.Entry(cashier, Decimal("-5"), "test"), wallet.Entry(own, Decimal("5"), "test")],
                    defer=True)

    with pytest.raises(wallet.LedgerImbalance):
        orphan()
    db.session.rollback()
    assert wallet.balance(player).balance == before and verify.audit_ledger() == []


def test_r2_3_a_decision_stays_within_its_statement_budget(db, casino, betting) -> None:
    player, table, first = betting
    receipt = rounds.place_bets(player, table, "10", request_id="second", now=T0 + SECOND)
    casino.run(table, T0 + 11 * SECOND)  # the hole cards: the pre-flop decision is due
    rounds.decide(first, receipt.round_id, "flop", request_id="first-flop", now=T0 + 12 * SECOND)
    with counted(db) as sent:
        rounds.decide(player, receipt.round_id, "flop", request_id="second-flop", now=T0 + 12 * SECOND)
    assert len(sent) <= budget(db, "flop decision"), "\n".join(sent)


def test_r2_3_a_decisions_audit_entry_and_flop_stake_go_in_with_its_posting(db, casino, betting) -> None:
    """Issue 10: what a decision writes that nothing reads back before commit, its audit entry and
    its bet's Flop stake, goes in with its ledger posting (one statement on PostgreSQL,
    ``wallet.post``'s ``also``), and is there once committed (R2.3)."""
    player, table, _ = betting
    receipt = rounds.place_bets(player, table, "10", request_id="second", now=T0 + SECOND)
    casino.run(table, T0 + 11 * SECOND)  # the hole cards: the pre-flop decision is due
    with counted(db) as sent:
        rounds.decide(player, receipt.round_id, "flop", request_id="second-flop", now=T0 + 12 * SECOND)
    if db.engine.dialect.name == "postgresql":
        (posting,) = [statement for statement in sent if "INSERT INTO postings" in statement]
        assert "INSERT INTO audit_log" in posting and "UPDATE bets SET flop" in posting, posting
    with db.engine.connect() as fresh:
        entries = fresh.execute(select(AuditEntry.action, AuditEntry.detail).where(
            AuditEntry.player_id == player, AuditEntry.round_id == receipt.round_id)).all()
        stake = fresh.execute(select(Bet.flop).where(Bet.id == receipt.bet_id)).scalar_one()
    assert [(action, detail["street"], detail["decision"]) for action, detail in entries
            if action == "decision"] == [("decision", "preflop", "flop")]
    assert stake == Decimal("20") and verify.audit_ledger() == []


@contextmanager
def bets_read() -> Iterator[list[int]]:
    """The players whose bets the session loads (or reloads) inside the block."""
    players: list[int] = []

    def record(bet: Bet, *_rest: Any) -> None:
        players.append(bet.player_id)

    for name in ("load", "refresh"):
        event.listen(Bet, name, record)
    try:
        yield players
    finally:
        for name in ("load", "refresh"):
            event.remove(Bet, name, record)


def test_r2_a_bettors_bet_and_decision_read_no_other_bettors_bet(casino) -> None:
    """Issue 10: a bet (R2.1) and a decision (R2.3) are checked against the bettor's own bet, so
    what they cost does not grow with the table's bettors."""
    table = casino.table(casino.pool("100"))
    casino.open(table)
    others = [casino.player() for _ in range(5)]
    for number, other in enumerate(others):
        receipt = rounds.place_bets(other, table, "10", "0", True, request_id=f"other-{number}", now=T0)
    player = casino.player()
    with bets_read() as bet_reads:
        rounds.place_bets(player, table, "10", "0", True, request_id="mine", now=T0 + SECOND)
    casino.run(table, T0 + 11 * SECOND)  # the hole cards: the pre-flop decision is due
    with bets_read() as decision_reads:
        rounds.decide(player, receipt.round_id, "flop", request_id="mine-flop", now=T0 + 12 * SECOND)
    assert set(bet_reads) <= {player} and set(decision_reads) == {player}


def test_a_requests_session_and_player_are_one_read(db, casino) -> None:
    token = sessions.start(sessions.PLAYER, casino.player())
    accounts.session_player(token)  # kept alive just now: no write
    with counted(db) as sent:
        principal, player = accounts.session_player(token)
    assert principal is not None and player is not None and player.id == principal.id
    assert len(sent) <= BUDGET["session and player"], "\n".join(sent)


def test_a_tables_state_for_its_streams_is_a_few_reads_however_many_watch(db, casino, betting) -> None:
    """Issue 10: the public part once, each viewer's own part and a bettor's fresh balance added
    without a read per viewer (R1: each still sees only their own bets)."""
    player, table, first = betting
    rounds.place_bets(player, table, "10", request_id="second", now=T0 + SECOND)
    watchers = viewing.viewers_of([first, player, *(casino.player() for _ in range(8))])
    with counted(db) as few:
        viewing.table_views(table, dict(list(watchers.items())[:2]))
    with counted(db) as many:
        views = viewing.table_views(table, watchers).by_viewer
    assert len(many) == len(few) <= BUDGET["a table's state for its streams"], "\n".join(many)
    assert views[first]["round"]["you"]["bet"]["progressive"] == "1"
    assert views[player]["round"]["you"]["bet"]["progressive"] == "0"
    assert views[player]["balance"]["reserved"] == "40"  # R2.3-R2.5: the Flop bet (2 × Ante) and the two later


def test_r1_a_rounds_recall_is_a_few_reads_however_many_bet(db, casino) -> None:
    """A player's recall of a round (``GET /api/rounds/{id}``, R1: their own bets and the public
    part) and the house's view of it read the round, its bets and their decisions once each: what
    they cost does not grow with the table's bettors (issue 10)."""
    table = casino.table(casino.pool("100"))
    round_id = casino.open(table)
    players = [casino.player() for _ in range(6)]
    for number, player in enumerate(players):
        rounds.place_bets(player, table, "10", "0", True, request_id=f"recall-{number}", now=T0)
    casino.run(table, T0 + 11 * SECOND)  # the hole cards: each bettor decides
    for number, player in enumerate(players):
        rounds.decide(player, round_id, "flop", request_id=f"recall-flop-{number}", now=T0 + 12 * SECOND)
    for view in (lambda: viewing.round_view(round_id, players[0]), lambda: viewing.house_view(round_id)):
        with counted(db) as sent:
            view()
        assert len(sent) <= BUDGET["a round's recall"], "\n".join(sent)
    assert viewing.round_view(round_id, players[0])["you"]["bet"]["decisions"]["preflop"]["action"] == "flop"


def test_issue10_r2_7_a_finished_round_on_the_felt_is_read_once_and_seen_as_before(casino) -> None:
    """A settled round stays on the felt as the table's last round through the next one (R2.7)
    and never changes again (R9): the table's next builds take it as built, reading only the
    current round's bets, and every viewer sees it exactly as a fresh read shows it (R1)."""
    table = casino.table(casino.pool("1000"))
    alice, bob, carol = casino.player(), casino.player(), casino.player()
    settled = casino.open(table, now=T0)
    for player in (alice, bob):
        rounds.place_bets(player, table, "10", "0", True, request_id=f"first-{player}", now=T0)
    events: list[str] = []
    for later in range(100, 1000, 100):  # R8 decides what they leave; the next round opens
        events += casino.run(table, T0 + later * SECOND) if "opened" not in events else []
    assert events[-2:] == ["settled", "opened"]
    current = rounds.place_bets(carol, table, "10", request_id="next", now=T0 + 1000 * SECOND).round_id
    watchers = viewing.viewers_of([alice, bob, carol])
    first = viewing.table_views(table, watchers).by_viewer
    with bets_read() as again:
        views = viewing.table_views(table, watchers).by_viewer
    assert set(again) == {carol}  # the current round's bet alone
    for viewer in (alice, bob, carol):
        assert views[viewer]["last_round"] == first[viewer]["last_round"] == viewing.round_view(settled, viewer)
        assert views[viewer]["round"]["round_id"] == current
    assert views[alice]["last_round"]["you"]["bet"]["progressive"] == "1"
    assert views[carol]["last_round"]["you"]["bet"] is None


def test_issue10_the_lobby_counts_each_tables_bettors_without_reading_their_bets(casino) -> None:
    """Every player holds a lobby stream, rebuilt on each change of any table: it shows how many bet
    at each table and whether its window is an empty one (R2.1), and reads no bet to do so."""
    busy, empty = casino.table(casino.pool("100")), casino.table()
    players = [casino.player() for _ in range(3)]
    for table in (busy, empty):
        casino.open(table)
    for number, player in enumerate(players):
        rounds.place_bets(player, busy, "10", request_id=f"lobby-{number}", now=T0)
    watchers = viewing.viewers_of(players)
    with bets_read() as read:
        lobby = viewing.lobby_views(watchers).by_viewer[players[0]]
    listed = {entry["id"]: entry["round"] for entry in lobby["tables"]}
    assert read == [] and listed[busy]["bettors"] == 3 and listed[empty]["bettors"] == 0
    assert listed[busy]["repeats_every"] is None and listed[empty]["repeats_every"] == 10  # R2.1: empty rolls over
