"""Issue 10: the login limit holds under concurrency and refuses floods before hashing; usernames
are unique whatever their case; a password change ends every session."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from casino_holdem.models import AuditEntry
from casino_holdem.services import accounts, logins, operators, sessions
from casino_holdem.services.errors import Conflict
from support.casino import PASSWORD


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password hash check, counted (slowed a little, so a burst really overlaps)."""
    seen: list[str] = []
    real = logins.check_password_hash

    def counted(stored: str, password: str) -> bool:
        seen.append(password)
        threading.Event().wait(0.02)
        return real(stored, password)

    monkeypatch.setattr(logins, "check_password_hash", counted)
    return seen


def test_a_burst_for_one_username_gets_at_most_the_limit_of_password_checks(app, db, casino, checks) -> None:
    casino.funded_player("alice", "USD", "0")
    db.session.remove()
    outcomes: list[str] = []

    def guess(number: int) -> None:
        with app.app_context():
            try:
                outcomes.append("checked" if accounts.login("alice", f"guess{number}", "10.0.0.1") is None else "in")
            except logins.TooManyAttempts:
                outcomes.append("refused")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=guess, args=(number,)) for number in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(outcomes) == ["checked"] * logins.USER_LIMIT + ["refused"] * (20 - logins.USER_LIMIT)
    assert len(checks) == logins.USER_LIMIT


def test_a_flood_of_random_usernames_from_one_address_is_refused_before_hashing(db, casino, checks,
                                                                                monkeypatch) -> None:
    monkeypatch.setattr(logins, "ADDRESS_LIMIT", 3)
    casino.funded_player("alice", "USD", "0")
    for number in range(3):
        assert accounts.login(f"nobody{number}", "x", "10.0.0.9") is None
    with pytest.raises(logins.TooManyAttempts):
        accounts.login("nobody3", "x", "10.0.0.9")
    assert len(checks) == 3
    assert accounts.login("alice", PASSWORD, "10.0.0.10") is not None  # another address is not slowed


def test_successful_logins_use_up_no_limit(db, casino, monkeypatch) -> None:
    monkeypatch.setattr(logins, "ADDRESS_LIMIT", 3)
    casino.funded_player("alice", "USD", "0")
    for _ in range(3 * logins.USER_LIMIT):
        assert accounts.login("alice", PASSWORD, "10.0.0.1") is not None


def test_the_limit_window_starts_over(db, casino) -> None:
    casino.funded_player("alice", "USD", "0")
    start = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    for _ in range(logins.USER_LIMIT):
        assert accounts.login("alice", "guess", "10.0.0.1", now=start) is None
    with pytest.raises(logins.TooManyAttempts) as refused:
        accounts.login("alice", PASSWORD, "10.0.0.1", now=start + dt.timedelta(minutes=1))
    assert refused.value.retry_after == 240
    assert accounts.login("alice", PASSWORD, "10.0.0.1", now=start + logins.WINDOW) is not None


def test_usernames_are_unique_whatever_their_case(db, casino) -> None:
    casino.funded_player("demo1", "USD", "0")
    with pytest.raises(Conflict):
        accounts.register("Demo1", "long enough", "USD")
    assert accounts.login("DEMO1", PASSWORD, "10.0.0.1").username == "demo1"
    db.session.rollback()
    with pytest.raises(IntegrityError), db.engine.begin() as connection:  # the database itself refuses
        connection.execute(text("INSERT INTO players (username, password_hash, currency, is_bot, created_at) "
                                "VALUES ('DEMO1', 'x', 'USD', false, CURRENT_TIMESTAMP)"))
    operators.create("pit1", "a long password", "pit")
    with pytest.raises(Conflict):
        operators.create("PIT1", "a long password", "pit")


def test_a_password_change_ends_every_session_of_the_player(db, casino) -> None:
    player = casino.funded_player("alice", "USD", "0")
    tokens = [sessions.start(sessions.PLAYER, player) for _ in range(2)]
    with pytest.raises(logins.WrongPassword):
        accounts.change_password(player, "not it", "a new password", "10.0.0.1")
    assert all(sessions.resolve(token) for token in tokens)
    accounts.change_password(player, PASSWORD, "a new password", "10.0.0.1")
    assert [sessions.resolve(token) for token in tokens] == [None, None]
    assert accounts.login("alice", "a new password", "10.0.0.1") is not None


def test_the_current_password_of_a_change_counts_against_the_login_limits(db, casino, checks) -> None:
    """A stolen cookie cannot be used to guess the password behind it: the current password of a
    change is checked under the login limits, shared with logins from that address (issue 10)."""
    player = casino.funded_player("alice", "USD", "0")
    for number in range(logins.USER_LIMIT):
        with pytest.raises(logins.WrongPassword):
            accounts.change_password(player, f"guess{number}", "a new password", "10.0.0.9")
    with pytest.raises(logins.TooManyAttempts) as refused:
        accounts.change_password(player, PASSWORD, "a new password", "10.0.0.9")
    assert refused.value.field == "current_password" and refused.value.retry_after > 0
    with pytest.raises(logins.TooManyAttempts):
        accounts.login("alice", PASSWORD, "10.0.0.9")  # the same limit as a login from there
    assert len(checks) == logins.USER_LIMIT  # refused without hashing
    assert accounts.login("alice", PASSWORD, "10.0.0.1") is not None  # elsewhere the player is not locked out
    failures = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "password_change_failed")).all()
    assert len(failures) == logins.USER_LIMIT


def test_a_password_checked_before_another_device_changed_it_changes_nothing(db, casino, monkeypatch) -> None:
    """Two changes confirmed by the same old password at once: the second finds the password it
    checked replaced, and is refused as a wrong current password."""
    player = casino.funded_player("alice", "USD", "0")
    real = logins.hash_password

    def meanwhile(password: str) -> str:
        monkeypatch.setattr(logins, "hash_password", real)
        accounts.change_password(player, PASSWORD, "changed elsewhere", "10.0.0.2")
        return real(password)

    monkeypatch.setattr(logins, "hash_password", meanwhile)
    with pytest.raises(logins.WrongPassword):
        accounts.change_password(player, PASSWORD, "changed here", "10.0.0.1")
    assert accounts.login("alice", "changed elsewhere", "10.0.0.1") is not None
