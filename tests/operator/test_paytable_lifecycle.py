"""The paytable lifecycle: validated uploads, four-eyes approval, assignment from the next round and
never before ``effective_from``, and replay from the bytes kept in the database."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import freezegun
import pytest
from sqlalchemy import select

from casino_holdem.models import GameRound, GameTable
from casino_holdem.services import dealer_steps, paytable_versions, rounds, verify
from casino_holdem.services.errors import Conflict
from casino_holdem.services.paytable_versions import PaytableRejected
from support.casino import SECOND, T0, deck_with, staff

ANN, BEN = staff("ann", "manager"), staff("ben", "manager")


@pytest.fixture
def approved(variant):
    """Submit a version as one manager and approve it as another; its id."""
    def make(version: int, **kwargs) -> int:
        draft = paytable_versions.submit(variant(version, **kwargs), ANN)
        return paytable_versions.approve(draft.id, BEN).id
    return make


@pytest.mark.parametrize(("replace", "key"), [
    (("ante = 1\n", "ante = -1\n"), "main.ante"),
    (('ante_qualifier = "straight"', 'ante_qualifier = "pair"'), "main.ante_qualifier"),
    (('effective_from = "2026-12-01"', 'effective_from = "soon"'), "paytable.effective_from"),
])
def test_paytable_validation_errors_name_their_keys(db, replace, key, variant) -> None:
    content = variant(2).decode().replace(*replace, 1).encode()
    with pytest.raises(PaytableRejected) as refused:
        paytable_versions.submit(content, ANN)
    assert key in refused.value.problems and refused.value.status == 422
    assert paytable_versions.list_versions() == []


def test_not_toml_at_all_is_refused_as_content(db) -> None:
    with pytest.raises(PaytableRejected) as refused:
        paytable_versions.submit(b"[paytable\n", ANN)
    assert list(refused.value.problems) == ["content"]


def test_a_version_number_is_never_reused_for_other_bytes(db, variant) -> None:
    first = paytable_versions.submit(variant(2), ANN)
    assert paytable_versions.submit(variant(2), BEN) == first  # the same bytes are the same version
    with pytest.raises(Conflict, match="never changes"):
        paytable_versions.submit(variant(2, aa=31), ANN)


def test_four_eyes_the_same_manager_cannot_approve_their_own_version(db, variant) -> None:
    draft = paytable_versions.submit(variant(2), ANN)
    with pytest.raises(Conflict, match="four-eyes"):
        paytable_versions.approve(draft.id, ANN)
    assert paytable_versions.list_versions()[0].status == "draft"
    approved = paytable_versions.approve(draft.id, BEN)
    assert (approved.status, approved.approved_by) == ("approved", "operator:ben")
    with pytest.raises(Conflict, match="not a draft"):
        paytable_versions.approve(draft.id, staff("cy", "manager"))


def test_a_draft_cannot_be_assigned(casino, variant) -> None:
    table = casino.table()
    draft = paytable_versions.submit(variant(2), ANN)
    with pytest.raises(Conflict, match="approved"):
        paytable_versions.assign(table, draft.id, ANN, "new odds")


def _paytable_of(db, model, row_id: int) -> int:
    version = db.session.get(model, row_id).paytable_version
    db.session.rollback()
    return version


def test_a_version_change_takes_effect_from_the_next_round_never_inside_one(casino, db, approved) -> None:
    table, player = casino.table(), casino.player()
    in_play = casino.open(table)
    rounds.place_bets(player, table, "10", "0", False, request_id="p", now=T0)
    paytable_versions.assign(table, approved(2), BEN, "new odds", now=T0 + SECOND)
    events: list[str] = []
    for minute in range(1, 6):  # R8: the windows close one after the other; the round settles, the next opens
        events += casino.run(table, T0 + minute * 60 * SECOND)
    assert events.index("opened") > events.index("settled") and _paytable_of(db, GameRound, in_play) == 1
    next_round = db.session.scalars(select(GameRound.id).where(GameRound.table_id == table)
                                    .order_by(GameRound.id.desc())).first()
    assert _paytable_of(db, GameRound, next_round) == 2 and _paytable_of(db, GameTable, table) == 2
    assert [v.status for v in paytable_versions.list_versions()] == ["in use", "in use"]
    casino.assert_sound()


def test_a_version_never_goes_live_before_its_effective_date(casino, db, approved) -> None:
    table = casino.table()
    with freezegun.freeze_time("2026-12-01 12:00:00"):
        paytable_versions.assign(table, approved(2, effective_from="2026-12-03"), BEN, "from Thursday")
        assert dealer_steps.advance(table).event == "opened"
    first = db.session.scalars(select(GameRound).where(GameRound.table_id == table)).one()
    assert first.paytable_version == 1
    first.phase = "void"  # the round ends without play so that the next one opens
    db.session.commit()
    with freezegun.freeze_time("2026-12-02 23:59:59"):
        dealer_steps.advance(table)
    with freezegun.freeze_time("2026-12-03 00:00:00"):
        for row in db.session.scalars(select(GameRound).where(GameRound.table_id == table)):
            row.phase = "void"
        db.session.commit()
        dealer_steps.advance(table)
    versions = db.session.scalars(select(GameRound.paytable_version).where(GameRound.table_id == table)
                                  .order_by(GameRound.id)).all()
    assert versions == [1, 1, 2]


def test_a_round_replays_from_the_bytes_kept_in_the_database(casino, db, tmp_path, monkeypatch, approved) -> None:
    table, player = casino.table(), casino.player()
    paytable_versions.assign(table, approved(2, aa=40), BEN, "richer A-A", now=T0 - SECOND)
    round_id = casino.open(table, deck_with("Ac Ad", "4h Kd", "9s 8s 2c 3h Jd"))
    rounds.place_bets(player, table, "10", "5", False, request_id="p", now=T0)
    casino.run(table, T0 + 10 * SECOND)
    rounds.decide(player, round_id, "flop", request_id="f", now=T0 + 11 * SECOND)
    for minute in range(1, 4):  # R8: the Turn and River are checked for the player
        casino.run(table, T0 + minute * 60 * SECOND)
    monkeypatch.setenv("CASINO_PAYTABLES_DIR", str(tmp_path))  # another server: no paytable files at all
    assert verify.replay(round_id).identical
    # A-A pays 40 to 1 under version 2 (R4); a pair of aces beats king high: the Flop bet wins, the Ante pushes (R3)
    assert casino.balance(player) == Decimal(1000 + 5 * 40 + 20)
    casino.assert_sound()


def test_two_versions_side_by_side_mark_the_differences_and_the_bonus_return_change(db, variant) -> None:
    from casino_holdem.commands.operator import exact_bonus

    old, new = (paytable_versions.submit(variant(version, aa=aa), ANN).id for version, aa in ((2, 30), (3, 40)))
    side_by_side = paytable_versions.compare(old, new, exact_bonus)
    differing = {row["key"]: (row["left"], row["right"]) for row in side_by_side["keys"] if row["differs"]}
    assert differing == {"paytable.version": (2, 3), "bonus.aa": (30, 40)}
    assert Fraction(side_by_side["bonus_rtp"]["change"]) > 0  # R4: A-A pays more
