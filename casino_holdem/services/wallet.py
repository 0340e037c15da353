"""Players' money: ledger accounts, double-entry postings, deposits, balances and reservations.

Money moves only through :func:`post`: one ledger transaction whose postings sum to zero in every
currency (checked here, and again by the database: when the transaction is sealed, and on
PostgreSQL at commit), with every touched account locked in the lock order of :mod:`.transaction`
and its stored balance moved by exactly its postings. The fixed-multiplier link between a
currency and the pool's base unit (R6) goes through the
``exchange`` accounts, so even a cross-currency movement balances currency by currency.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Integer, String, UpdateBase, bindparam, event, func, insert, select, true, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.sql.elements import Grouping
from werkzeug.security import generate_password_hash

from .. import paytable_files
from ..core.money import ZERO, is_multiple_of, parse_amount
from ..core.paytable import CurrencySpec
from ..core.round import FINISHED
from ..extensions import db, wrote
from ..models import (
    BASE,
    NON_NEGATIVE_KINDS,
    AccountKind,
    Bet,
    GameRound,
    LedgerAccount,
    LedgerTransaction,
    Money,
    Player,
    Posting,
    utcnow,
)
from . import audit, queries
from .errors import Conflict, InsufficientFunds, NotFound, Unprocessable, core_refusals
from .round_rows import bettor_of
from .transaction import locked, transactional

if TYPE_CHECKING:
    from .operators import OperatorView

#: the players.username column's length
MAX_USERNAME = 64
#: the ledger's tables, written by plain statements (:func:`post`)
LEDGER_ACCOUNTS, LEDGER_TRANSACTIONS, POSTINGS = (LedgerAccount.__table__, LedgerTransaction.__table__,
                                                  Posting.__table__)
# :func:`post`'s statements, built once with their parameters named (issue 10: every bet, decision
# and settlement posts, and building a statement and its cache key per call cost the web worker
# more CPU than the statement's round trip; measured in bench/request_cost.py)
#: a new ledger transaction, unsealed (``kind``, ``round_id``, ``idempotency_key``): its id
NEW_TRANSACTION = insert(LEDGER_TRANSACTIONS).values(sealed=False).returning(LEDGER_TRANSACTIONS.c.id)
#: the postings of one ledger transaction (many parameter sets at once)
NEW_POSTINGS = insert(POSTINGS)
#: PostgreSQL: the new transaction, sealed, and its postings in one statement (issue 10: two round
#: trips fewer for every posting; the database checks the balance per currency at commit,
#: migrations 0001 and 0900). The postings come from arrays, one element per leg, so the statement
#: is one whatever the number of legs, and are inserted in the legs' order
LEGS_TABLE = func.unnest(
    bindparam("account_ids", type_=ARRAY(Integer)), bindparam("currencies", type_=ARRAY(String)),
    bindparam("amounts", type_=ARRAY(Money())), bindparam("memos", type_=ARRAY(String)),
    bindparam("player_ids", type_=ARRAY(Integer)),
).table_valued("account_id", "currency", "amount", "memo", "player_id", with_ordinality="ordinal").render_derived()
NEW_TRANSACTION_CTE = (insert(LEDGER_TRANSACTIONS).values(
    kind=bindparam("transaction_kind"), idempotency_key=bindparam("idempotency_key"),
    round_id=bindparam("transaction_round"), created_at=bindparam("created_at"), sealed=True)
    .returning(LEDGER_TRANSACTIONS.c.id).cte("new_transaction"))
#: PostgreSQL: the accounts ``moved_ids`` each moved by its ``deltas`` element by one statement,
#: the balances they leave (issue 10: one round trip for what took one an account). The rows are
#: locked first in id order (a sub-select ``ORDER BY id FOR NO KEY UPDATE``, which locks them as
#: its sort gives them): the lock order of :mod:`.transaction` within each group of accounts
MOVED_IDS = bindparam("moved_ids", type_=ARRAY(Integer))
IN_ID_ORDER = (select(LEDGER_ACCOUNTS.c.id).where(LEDGER_ACCOUNTS.c.id == func.any(MOVED_IDS))
               .order_by(LEDGER_ACCOUNTS.c.id).with_for_update(key_share=True).subquery("in_id_order"))
ADD_TO_BALANCES = (update(LEDGER_ACCOUNTS).where(LEDGER_ACCOUNTS.c.id == IN_ID_ORDER.c.id)
                   .values(balance=LEDGER_ACCOUNTS.c.balance + Grouping(bindparam("deltas", type_=ARRAY(Money())))[
                       func.array_position(MOVED_IDS, LEDGER_ACCOUNTS.c.id)])
                   .returning(LEDGER_ACCOUNTS.c.id, LEDGER_ACCOUNTS.c.balance))
MOVED_CTE = ADD_TO_BALANCES.cte("moved")
NEW_TRANSACTION_WITH_POSTINGS = (
    select(NEW_TRANSACTION_CTE.c.id, MOVED_CTE.c.id.label("account_id"), MOVED_CTE.c.balance)
    .select_from(NEW_TRANSACTION_CTE.outerjoin(MOVED_CTE, true()))
    .add_cte(insert(POSTINGS).from_select(
        ["transaction_id", "account_id", "currency", "amount", "memo", "player_id"],
        select(NEW_TRANSACTION_CTE.c.id, LEGS_TABLE.c.account_id, LEGS_TABLE.c.currency, LEGS_TABLE.c.amount,
               LEGS_TABLE.c.memo, LEGS_TABLE.c.player_id).select_from(NEW_TRANSACTION_CTE.join(LEGS_TABLE, true()))
        .order_by(LEGS_TABLE.c.ordinal)).cte("new_postings")))
#: SQLite's seal: the database then checks the transaction balances per currency (migration 0001)
SEAL = update(LEDGER_TRANSACTIONS).where(LEDGER_TRANSACTIONS.c.id == bindparam("transaction_id")).values(sealed=True)
#: one account's stored balance moved by ``delta`` (``account_id``): the balance it leaves
ADD_TO_BALANCE = (update(LEDGER_ACCOUNTS).where(LEDGER_ACCOUNTS.c.id == bindparam("account_id"))
                  .values(balance=LEDGER_ACCOUNTS.c.balance + bindparam("delta", type_=LEDGER_ACCOUNTS.c.balance.type))
                  .returning(LEDGER_ACCOUNTS.c.balance))


class LedgerImbalance(RuntimeError):
    """A programming error: a ledger transaction that does not sum to zero per currency."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One leg to post: ``amount`` (signed) on ``account``; ``player_id`` says whose bet it concerns."""

    account: LedgerAccount
    amount: Decimal
    memo: str
    player_id: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerView:
    id: int
    username: str
    currency: str
    is_bot: bool
    #: the pages' language the player chose (issue 13), None until they choose one
    language: str | None = None


@dataclass(frozen=True, slots=True)
class Balance:
    """``reserved`` is what the player's open bets may still ask for (the Flop bet and later bets,
    R2.3-R2.5), so ``available`` is what a new bet may use."""

    player_id: int
    currency: str
    balance: Decimal
    reserved: Decimal
    available: Decimal


@dataclass(frozen=True, slots=True)
class PostingView:
    transaction_id: int
    kind: str
    at: dt.datetime
    amount: Decimal
    memo: str
    round_id: int | None


# --- accounts -----------------------------------------------------------------------------------

def _this_transaction(name: str) -> dict[Any, Any]:
    """A dict kept for the session's current transaction only: a retry, or the next request,
    starts with an empty one."""
    session = db.session()
    kept = _kept(session, name)
    if kept is None:
        kept = {}
        session.info[name] = (session.get_transaction(), kept)
    return kept


def _kept(session: Session, name: str) -> dict[Any, Any] | None:
    """What :func:`_this_transaction` keeps as ``name`` for ``session``'s current transaction, if anything."""
    kept = session.info.get(name)
    return cast(dict[Any, Any], kept[1]) if kept is not None and kept[0] is session.get_transaction() else None


#: the accounts with these codes (``codes``, a list), built once (issue 10: every bet, posting
#: decision, table read and state build reads its accounts)
ACCOUNTS_BY_CODE = select(LedgerAccount).where(LedgerAccount.code.in_(bindparam("codes", expanding=True)))


def _account(code: str, kind: AccountKind, currency: str, **links: int | None) -> LedgerAccount:
    """The account with that code (made on first use), read once per transaction (issue 10: a bet
    names the wallet and the round's in-play account in several postings)."""
    known = _this_transaction("casino_accounts")
    account = known.get(code)
    if account is None:
        by_code = {"codes": [code]}
        account = (db.session.scalars(ACCOUNTS_BY_CODE, by_code).first() or _opened(code, kind, currency, links)
                   or db.session.scalars(ACCOUNTS_BY_CODE, by_code).one())
        known[code] = account
    return account


def _opened(code: str, kind: AccountKind, currency: str, links: Mapping[str, int | None]) -> LedgerAccount | None:
    """Open the account, or None when another transaction opened it first (issue 10: the first
    bets of a round all find its in-play account missing; the losers of that race wait for the
    winner's commit and then read its account, where a plain INSERT would fail them and retry
    the whole bet)."""
    statement = queries.upsert(LedgerAccount).values(code=code, kind=kind.value, currency=currency, balance=ZERO,
                                                     may_go_negative=kind not in NON_NEGATIVE_KINDS, **links)
    return db.session.scalars(statement.on_conflict_do_nothing(index_elements=[LedgerAccount.code])
                              .returning(LedgerAccount)).first()


def _wallet_code(player_id: int) -> str:
    return f"wallet:{player_id}"


def wallet_account(player: Player) -> LedgerAccount:
    return player_wallet(player.id, player.currency)


def player_wallet(player_id: int, currency: str) -> LedgerAccount:
    """The wallet of the player with that id (a bet carries its player's currency), without
    reading the player."""
    return _account(_wallet_code(player_id), AccountKind.WALLET, currency, player_id=player_id)


def _in_play_code(round_id: int, currency: str) -> str:
    return f"in_play:{round_id}:{currency}"


def in_play_account(round_id: int, currency: str) -> LedgerAccount:
    """One round's stakes in one currency until settlement or void."""
    return _account(_in_play_code(round_id, currency), AccountKind.IN_PLAY, currency, round_id=round_id)


def read_bettors_accounts(bets: Iterable[Bet]) -> None:
    """Read the wallets and in-play accounts of these bets in one query (issue 10: a settlement
    names twenty bettors' accounts); :func:`player_wallet` and :func:`in_play_account` then find
    them without a query for the rest of the transaction."""
    _read({code for bet in bets for code in (_wallet_code(bet.player_id), _in_play_code(bet.round_id, bet.currency))})


def read_stake_accounts(player_id: int, currency: str, round_id: int, pool_id: int | None) -> None:
    """Read the accounts one player's bets move money through in one query (issue 10): their
    wallet and the round's in-play account, and for a Progressive bet (``pool_id``) the pool and
    the exchange accounts between the currency and the base unit (R6)."""
    codes = {_wallet_code(player_id), _in_play_code(round_id, currency)}
    if pool_id is not None:
        codes |= {_pool_code(pool_id), *(_house_code(AccountKind.EXCHANGE, code) for code in (BASE, currency))}
    _read(codes)


def _read(codes: set[str]) -> None:
    known = _this_transaction("casino_accounts")
    unread = codes - known.keys()
    if unread:
        known.update((account.code, account) for account in db.session.scalars(
            ACCOUNTS_BY_CODE, {"codes": sorted(unread)}))


def _house_code(kind: AccountKind, currency: str) -> str:
    return f"{kind.value}:{currency}"


def house_account(kind: AccountKind, currency: str) -> LedgerAccount:
    """The house's per-currency accounts: ``house``, ``exchange``, ``cashier``, ``seed``, ``correction``."""
    return _account(_house_code(kind, currency), kind, currency)


def _pool_code(pool_id: int) -> str:
    return f"pool:{pool_id}"


def pool_account(pool_id: int) -> LedgerAccount:
    return _account(_pool_code(pool_id), AccountKind.POOL, BASE, pool_id=pool_id)


#: the accounts of one player or one round; every other account (the house's, the exchange, the
#: pools) is shared by every table, so it is locked last and held only from its posting to commit
PLAYER_SIDE = (AccountKind.WALLET, AccountKind.IN_PLAY)


def lock_accounts(accounts: Iterable[LedgerAccount]) -> None:
    """Lock the accounts (``FOR NO KEY UPDATE``) and refresh their balances: the players' and rounds'
    accounts first, then the shared ones, each group in id order (the lock order of
    :mod:`.transaction`), so that no table waits on a shared account while another table's
    transaction does its own work (issue 10, R5)."""
    held = _this_transaction("casino_locked_accounts")
    unique = [account for account_id, account in {account.id: account for account in accounts}.items()
              if account_id not in held]  # a lock already held has the balance as this transaction left it
    held.update(dict.fromkeys(account.id for account in unique))
    for group in ([a.id for a in unique if a.kind in PLAYER_SIDE], [a.id for a in unique if a.kind not in PLAYER_SIDE]):
        if group:
            db.session.scalars(locked(select(LedgerAccount).where(LedgerAccount.id.in_(group))
                                      .order_by(LedgerAccount.id))).all()


#: where :func:`post` keeps, for the transaction's next posting, the legs a ``defer`` posting left
DEFERRED, LEGS = "casino_deferred_legs", "legs"


def post(kind: str, entries: Sequence[Entry], *, round_id: int | None = None,
         idempotency_key: str | None = None, reserved: bool = False, defer: bool = False,
         before_shared: Callable[[int], None] | None = None, also: Sequence[UpdateBase] = ()) -> int:
    """Record one balanced ledger transaction and move the stored balances (joins the caller's
    transaction); returns the transaction's id. Raises :class:`InsufficientFunds` when a wallet
    would go negative, before anything is written.

    Each step is one plain statement (issue 10: every bet, decision and settlement posts, and the
    unit of work's bookkeeping cost more than the statements themselves): the wallets (locked
    and read first, so a refusal names the wallet), the transaction, its postings, its seal (the
    database checks the balance per currency) and the balances of the players' side (wallets and
    rounds' in-play accounts): one statement on PostgreSQL (:func:`_new_transaction`), then each
    account every table shares (:func:`_add_to`). ``reserved``: what
    leaves the wallets was reserved when the Ante was placed (R2.3-R2.5, :func:`reserved`), so the
    wallets are not locked and read first (one statement fewer for every Flop, Turn and River
    bet); their statements that add to them still refuse a negative balance.

    ``defer``: the accounts other than wallets are moved by the transaction's next posting, which
    must follow in the same transaction (a Progressive bet's contribution, :func:`.rounds.place_bets`):
    the round's in-play account, shared by the table's bettors, is then locked once, by one
    statement, next to the pool's (issue 10: each lock taken as late as the lock order allows).
    ``before_shared(transaction_id)`` runs after the players' and rounds' accounts moved and
    before the shared ones: a pool posting's own row, next in the lock order (:func:`.jackpot.move`).

    ``also``: statements of the caller's that write what nothing reads back in this transaction
    (an audit entry, :func:`.audit.entry`; a bet's street stake), sent in the posting's own
    statement on PostgreSQL, as data-modifying ``WITH`` clauses (issue 10: a round trip fewer
    each, and a bet's or a decision's latency is its round trips), and one by one before it on
    SQLite."""
    legs = [entry for entry in entries if entry.amount != 0]
    totals: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for entry in legs:
        totals[entry.account.currency] += entry.amount
    unbalanced = {currency: total for currency, total in totals.items() if total != 0}
    if unbalanced:
        raise LedgerImbalance(f"ledger transaction {kind}: postings do not sum to zero: {unbalanced}")
    own = [entry for entry in legs if entry.account.kind == AccountKind.WALLET]
    if not reserved:
        _check_funds(own)
    db.session.flush()  # plain statements do not flush: what the session holds goes first
    deferred = _this_transaction(DEFERRED)
    others = deferred.pop(LEGS, []) + [entry for entry in legs if entry.account.kind != AccountKind.WALLET]
    if defer:
        deferred[LEGS] = others
    players_side = own + ([] if defer else [entry for entry in others if entry.account.kind in PLAYER_SIDE])
    transaction_id = _new_transaction(kind, round_id, idempotency_key, legs, players_side, also)
    wrote(db.session(), [entry.account for entry in own])  # each player's open streams show it (events.publish)
    if defer:
        return transaction_id
    if before_shared is not None:
        before_shared(transaction_id)
    _add_to([entry for entry in others if entry.account.kind not in PLAYER_SIDE])
    return transaction_id


def _new_transaction(kind: str, round_id: int | None, idempotency_key: str | None, legs: Sequence[Entry],
                     players_side: Sequence[Entry], also: Sequence[UpdateBase]) -> int:
    """Insert a ledger transaction and its postings, seal it, and move the balances of the
    players' side's accounts (``players_side``, :func:`post`); the transaction's id.

    On PostgreSQL all of it is one statement (:data:`NEW_TRANSACTION_WITH_POSTINGS`), the
    accounts locked in id order (:data:`ADD_TO_BALANCES`), with the caller's ``also``. SQLite,
    which has no INSERT inside a WITH and one writer at a time, takes a statement for each step,
    the seal last."""
    if legs and db.session.get_bind().dialect.name == "postgresql":
        moved = _moved(players_side)
        statement = (NEW_TRANSACTION_WITH_POSTINGS.add_cte(*(each.cte(f"also_{n}") for n, each in enumerate(also)))
                     if also else NEW_TRANSACTION_WITH_POSTINGS)
        rows = db.session.execute(statement, {  # names no column of the accounts
            "transaction_kind": kind, "transaction_round": round_id, "idempotency_key": idempotency_key,
            "created_at": utcnow(), "account_ids": [entry.account.id for entry in legs],
            "currencies": [entry.account.currency for entry in legs], "amounts": [entry.amount for entry in legs],
            "memos": [entry.memo for entry in legs], "player_ids": [entry.player_id for entry in legs],
            "moved_ids": list(moved), "deltas": list(moved.values())}).all()
        _moved_to({account_id: balance for _, account_id, balance in rows if account_id is not None}, players_side)
        return int(rows[0][0])
    for each in also:
        db.session.execute(each)
    _add_to(players_side)
    transaction_id: int = db.session.execute(NEW_TRANSACTION, {"kind": kind, "round_id": round_id,
                                                                "idempotency_key": idempotency_key}).scalar_one()
    if legs:  # an empty list would insert one row of defaults
        db.session.execute(NEW_POSTINGS, [
            {"transaction_id": transaction_id, "account_id": entry.account.id, "currency": entry.account.currency,
             "amount": entry.amount, "memo": entry.memo, "player_id": entry.player_id} for entry in legs])
    db.session.execute(SEAL, {"transaction_id": transaction_id})
    return transaction_id


@event.listens_for(Session, "before_commit")
def _nothing_deferred(session: Session) -> None:
    """A deferred posting's accounts must be moved before commit: its postings would otherwise
    disagree with the stored balances (a programming error, refused with the transaction)."""
    if (_kept(session, DEFERRED) or {}).get(LEGS):
        raise LedgerImbalance("a deferred posting's accounts were never moved (wallet.post defer=True)")


def _check_funds(own: Sequence[Entry]) -> None:
    """Lock the wallets of ``own`` and refuse (:class:`InsufficientFunds`) what would take one below zero."""
    lock_accounts(entry.account for entry in own)
    moved: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for entry in own:
        moved[entry.account.id] += entry.amount
    for entry in own:
        if entry.account.balance + moved[entry.account.id] < 0:
            raise InsufficientFunds(f"balance: not enough {entry.account.currency} for {entry.memo}")


def _moved(entries: Sequence[Entry]) -> dict[int, Decimal]:
    """What the entries add to each of their accounts, by account id."""
    added: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for entry in entries:
        added[entry.account.id] += entry.amount
    return added


def _moved_to(balances: Mapping[int, Decimal], entries: Sequence[Entry]) -> None:
    """The entries' accounts now hold ``balances`` (by id), which only accounts that may go
    negative do (the database's check refuses the others first)."""
    for account in {entry.account.id: entry.account for entry in entries}.values():
        set_committed_value(account, "balance", balances[account.id])
        if not account.may_go_negative and balances[account.id] < 0:
            raise LedgerImbalance(f"account {account.code} would go negative")


def _add_to(entries: Sequence[Entry]) -> None:
    """Move the stored balances of the entries' accounts by what they add to each.

    :func:`post` moves the players' side first (wallets and rounds' in-play accounts), then the
    accounts every table shares (the house's, the exchange, the pools), each group locked from
    that statement to commit only, never read first (issue 10: every bet of a round, and every
    Progressive bet of every table, passes through them), in id order: the lock order of
    :mod:`.transaction`. On PostgreSQL a group is one statement (:data:`ADD_TO_BALANCES`); on
    SQLite, one writer at a time, a statement an account."""
    added = _moved(entries)
    if not added:
        return
    if db.session.get_bind().dialect.name == "postgresql":
        rows = db.session.execute(ADD_TO_BALANCES, {"moved_ids": list(added), "deltas": list(added.values())})
        _moved_to({account_id: balance for account_id, balance in rows}, entries)
        return
    _moved_to({account_id: db.session.execute(ADD_TO_BALANCE, {"account_id": account_id,
                                                               "delta": added[account_id]}).scalar_one()
               for account_id in sorted(added)}, entries)


def transfer(kind: str, source: LedgerAccount, target: LedgerAccount, amount: Decimal, memo: str, *,
             player_id: int | None = None, round_id: int | None = None,
             idempotency_key: str | None = None) -> int:
    """A two-leg transaction in one currency."""
    return post(kind, [Entry(source, -amount, memo, player_id), Entry(target, amount, memo, player_id)],
                round_id=round_id, idempotency_key=idempotency_key)


# --- players ------------------------------------------------------------------------------------

def currency_spec(currency: str) -> CurrencySpec:
    """R6: the currency as the standard paytable defines it (multiplier and smallest unit)."""
    try:
        return paytable_files.resolve().currency(currency)
    except KeyError as error:
        raise Unprocessable(f"currency: {error.args[0]}", "currency") from None


def amount_of(value: Decimal | str | int, field: str) -> Decimal:
    """A request's amount as an exact Decimal (floats refused), or :class:`BadRequest` naming the field."""
    with core_refusals(field):
        return parse_amount(value, field=field)


def player_view(player: Player) -> PlayerView:
    return PlayerView(player.id, player.username, player.currency, player.is_bot, player.language)


@transactional
def create_player(username: str, password: str, currency: str, *, is_bot: bool = False) -> PlayerView:
    """A player with a wallet in one account currency (R6: one the paytable knows)."""
    username = _checked(username, password, currency)
    if _by_name(username) is not None:  # whatever its case (issue 10)
        raise Conflict(f"username: {username!r} is taken", "username")
    return _add_player(username, generate_password_hash(password), currency, is_bot)


@dataclass(frozen=True, slots=True)
class NewPlayer:
    username: str
    currency: str
    password: str


@transactional
def create_players(wanted: Sequence[NewPlayer]) -> dict[str, int]:
    """Set a floor up in one go (the load benchmark's thousand players): every player of ``wanted``
    whose name is not taken yet (whatever its case), all in one transaction, so a bad row refuses
    the batch. Each distinct password is hashed once for the batch: players sharing a password
    share its salted hash, which tells nothing the shared password does not. Returns how many were
    created and how many existed."""
    checked = [(_checked(row.username, row.password, row.currency), row) for row in wanted]
    taken = set(db.session.scalars(select(func.lower(Player.username))
                                   .where(func.lower(Player.username).in_([name.lower() for name, _ in checked]))))
    hashes: dict[str, str] = {}
    created = 0
    for username, row in checked:
        if username.lower() in taken:
            continue
        taken.add(username.lower())
        if row.password not in hashes:
            hashes[row.password] = generate_password_hash(row.password)
        _add_player(username, hashes[row.password], row.currency, False)
        created += 1
    return {"created": created, "existing": len(checked) - created}


def _checked(username: str, password: str, currency: str) -> str:
    """The username as stored (stripped), once the three fields are valid."""
    username = username.strip()
    if not 1 <= len(username) <= MAX_USERNAME:
        raise Unprocessable(f"username: 1 to {MAX_USERNAME} characters", "username")
    if not password:
        raise Unprocessable("password: must not be empty", "password")
    currency_spec(currency)
    return username


def _add_player(username: str, password_hash: str, currency: str, is_bot: bool) -> PlayerView:
    player = Player(username=username, password_hash=password_hash, currency=currency, is_bot=is_bot)
    db.session.add(player)
    db.session.flush()
    wallet_account(player)
    audit.record(audit.SYSTEM, "player_created", player_id=player.id, username=username, currency=currency)
    return player_view(player)


def _by_name(username: str) -> Player | None:
    return db.session.scalars(select(Player).where(func.lower(Player.username) == username.lower())).first()


@transactional
def find_player(username: str) -> PlayerView | None:
    player = _by_name(username)
    return None if player is None else player_view(player)


# --- money in, balances -------------------------------------------------------------------------

@transactional
def deposit(player_id: int, amount: Decimal | str | int, idempotency_key: str, *, by: OperatorView | None = None,
            now: dt.datetime | None = None) -> Balance:
    """Credit a wallet from the cashier (an operator's deposit, or ``by`` None: the system's demo
    money). The same ``idempotency_key`` again returns the balance without a second credit."""
    player = queries.get(Player, player_id)
    value = amount_of(amount, "amount")
    spec = currency_spec(player.currency)
    if value <= 0 or not is_multiple_of(value, spec.unit):
        raise Unprocessable(f"amount {value}: must be a positive whole number of {player.currency} {spec.unit}",
                            "amount")
    wallet = wallet_account(player)
    cashier = house_account(AccountKind.CASHIER, player.currency)
    lock_accounts([wallet, cashier])
    key = f"deposit:{idempotency_key}"
    previous = db.session.scalars(select(LedgerTransaction).where(LedgerTransaction.idempotency_key == key)).first()
    if previous is None:
        before = wallet.balance
        transfer("deposit", cashier, wallet, value, "deposit", player_id=player.id, idempotency_key=key)
        audit.operator_action(by, "deposit", reason=None, player_id=player.id, now=now, before=before,
                              after=wallet.balance, amount=value, currency=player.currency, key=idempotency_key)
    elif not any(p.account_id == wallet.id and p.amount == value for p in previous.postings):
        raise Conflict(f"idempotency_key: {idempotency_key!r} was used for another deposit", "idempotency_key")
    return _balance(player.id, player.currency)


@transactional
def deposit_many(deposits: Sequence[tuple[str, Decimal | str, str]], *, by: OperatorView | None = None) -> int:
    """Many cashier credits in one transaction (a floor's set-up): each ``(username, amount, key)``
    as :func:`deposit`, a key used before crediting nothing again; an unknown username refuses the
    batch. Every wallet is locked before the cashier accounts (the lock order). Returns how many."""
    names = [name.strip().lower() for name, _, _ in deposits]
    players = {player.username.lower(): player for player in
               db.session.scalars(select(Player).where(func.lower(Player.username).in_(names)))}
    missing = next((name for name in names if name not in players), None)
    if missing is not None:
        raise NotFound(f"username: no player {missing!r}", "username")
    lock_accounts([wallet_account(player) for player in players.values()] +
                  [house_account(AccountKind.CASHIER, currency) for currency in {p.currency for p in players.values()}])
    for name, (_, amount, key) in zip(names, deposits, strict=True):
        deposit(players[name].id, amount, key, by=by)
    return len(deposits)


def reserved(player_id: int) -> Decimal:
    """What the player's bets on unfinished rounds may still ask for (core ``Bettor.exposure``)."""
    return _reserved([player_id])[player_id]


#: the player's bets that :func:`reserved` counts, for a caller that reads them with others
UNFINISHED_BET = GameRound.phase.notin_(FINISHED)


#: the bets of these ``players`` on unfinished rounds other than the ``known`` ones, with their
#: decisions, built once (issue 10: every table read and state build asks it)
UNFINISHED_BETS = (select(Bet).join(GameRound).options(selectinload(Bet.decisions))
                   .where(Bet.player_id.in_(bindparam("players", expanding=True)), UNFINISHED_BET,
                          GameRound.id.notin_(bindparam("known", expanding=True))))


def exposure(bets: Iterable[Bet]) -> Decimal:
    """What these bets, each read with its decisions, may still ask for (core ``Bettor.exposure``)."""
    return sum((bettor_of(bet).exposure for bet in bets), ZERO)


def _reserved(player_ids: Iterable[int], known: Sequence[GameRound] = ()) -> dict[int, Decimal]:
    """:func:`reserved` of many players; the bets of the ``known`` rounds (read with their bets
    and decisions) are taken as read, the players' other unfinished bets are read."""
    held = dict.fromkeys(player_ids, ZERO)
    bets = [bet for round_row in known if round_row.phase not in FINISHED for bet in round_row.bets
            if bet.player_id in held]
    bets += db.session.scalars(UNFINISHED_BETS, {"players": list(held),
                                                 "known": [round_row.id for round_row in known]})
    for bet in bets:
        held[bet.player_id] += bettor_of(bet).exposure
    return held


def _balance(player_id: int, currency: str) -> Balance:
    wallet = player_wallet(player_id, currency)
    held = reserved(player_id)
    return Balance(player_id, currency, wallet.balance, held, wallet.balance - held)


def balances_of(currencies: Mapping[int, str], known: Sequence[GameRound] = ()) -> dict[int, Balance]:
    """:func:`balance` of many players (id → account currency) in two reads whatever their
    number (issue 10: a table's change refreshes each of its bettors' balance on their streams);
    the ``known`` rounds, already read with their bets and decisions, are not read again."""
    wallets = {account.player_id: account for account in db.session.scalars(
        select(LedgerAccount).where(LedgerAccount.code.in_([_wallet_code(player_id) for player_id in currencies])))}
    wallets.update({player_id: player_wallet(player_id, currency) for player_id, currency in currencies.items()
                    if player_id not in wallets})
    held = _reserved(currencies, known)
    return {player_id: Balance(player_id, currency, wallets[player_id].balance, held[player_id],
                               wallets[player_id].balance - held[player_id])
            for player_id, currency in currencies.items()}


@transactional
def balance(player_id: int) -> Balance:
    """The wallet balance, what open bets reserve and what is available for new bets."""
    return _balance(player_id, queries.player_currency(player_id))


@transactional
def postings(player_id: int, limit: int = 50) -> list[PostingView]:
    """The latest postings on the player's wallet, newest first."""
    wallet = wallet_account(queries.get(Player, player_id))
    rows = db.session.execute(
        select(Posting, LedgerTransaction).join(LedgerTransaction)
        .where(Posting.account_id == wallet.id).order_by(Posting.id.desc()).limit(limit)).all()
    return [PostingView(tx.id, tx.kind, tx.created_at, p.amount, p.memo, tx.round_id) for p, tx in rows]
