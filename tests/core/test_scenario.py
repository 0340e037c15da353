"""docs/scenarios.md: the golden rounds of tests/scenarios/ and every bad input the contract names."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino_holdem import paytable_files
from casino_holdem.core.scenario import ScenarioError, compare, play, settlement_json

GOLDEN = sorted(Path(__file__).resolve().parents[1].joinpath("scenarios").glob("*.json"))


def settle_data(data: dict[str, Any]) -> dict[str, Any]:
    return settlement_json(play(data, paytable_files.resolve))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    output = settle_data(data)
    assert compare(data["expected"], output) == []
    pool = output["pool"]  # docs/scenarios.md "Output": after = before + contributions − paid, exactly
    assert Decimal(pool["after"]) == Decimal(pool["before"]) + Decimal(pool["contributions"]) - Decimal(pool["paid"])
    for bettor in output["bettors"]:
        bets = bettor["bets"].values()
        assert Decimal(bettor["staked"]) == sum(Decimal(b["stake"]) for b in bets)
        assert Decimal(bettor["returned"]) == sum(Decimal(b["returned"]) for b in bets)
        assert all(Decimal(b["returned"]) >= 0 for b in bets)


def test_there_is_a_golden_file_for_every_rule_table() -> None:
    names = {p.stem for p in GOLDEN}
    for prefix in ("r3_", "r4_", "r5_", "r6_", "r8_", "r9_"):
        assert any(n.startswith(prefix) for n in names), prefix
    for reason in ("card_exposed_during_betting", "dropped_card_seen", "misdeal", "shuffler_jam", "operator"):
        assert any(json.loads(p.read_text())["void"] and json.loads(p.read_text())["void"]["reason"] == reason
                   for p in GOLDEN), reason


def test_output_has_the_contract_shape() -> None:
    output = settle_data(json.loads(GOLDEN_BY_NAME["contract_example_royal_on_turn"].read_text()))
    assert set(output) == {"paytable", "player_hand", "dealer_hand", "result", "pool", "bettors"}
    assert set(output["paytable"]) == {"id", "version", "sha256"}
    assert set(output["player_hand"]) == {"category", "best_five", "strength"}
    assert isinstance(output["player_hand"]["strength"], int)
    assert list(output["bettors"][0]["bets"]) == ["ante", "flop", "turn", "river", "bonus", "progressive"]
    assert all(isinstance(v, str) for v in output["pool"].values())


GOLDEN_BY_NAME = {p.stem: p for p in GOLDEN}


def test_a_deck_deals_in_r1_order() -> None:
    example = json.loads(GOLDEN_BY_NAME["contract_example_royal_on_turn"].read_text())
    c = example["cards"]
    burns = ["9c", "9d", "9h"]
    top = [c["player"][0], c["dealer"][0], c["player"][1], c["dealer"][1], burns[0], *c["board"][:3], burns[1],
           c["board"][3], burns[2], c["board"][4]]
    rest = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs" if f"{r}{s}" not in top]
    deck_version = {**{k: v for k, v in example.items() if k != "cards"}, "deck": top + rest}
    assert settle_data(deck_version) == settle_data(example)


BASE: dict[str, Any] = {
    "pool": "100",
    "cards": {"player": ["As", "Kd"], "dealer": ["2c", "3c"], "board": ["4d", "5d", "6d", "7h", "9s"]},
    "bettors": [{"id": "p1", "currency": "USD", "ante": "10", "bonus": "5", "progressive": True,
                 "decisions": {"preflop": "flop", "flop": "check", "turn": "check"}}],
}


def mutate(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    node: Any = data
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    for key in keys[:-1]:
        node = node[key]
    if value is DELETE:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return data


class _Delete:
    def __repr__(self) -> str:
        return "<deleted>"


DELETE = _Delete()

BAD_INPUTS = [
    ("cards.player", ["As", "Xx"], r"^cards\.player\[1\]: 'Xx': not a card"),
    ("cards.board", ["4d", "5d", "6d", "7h", "As"], r"^cards: duplicate card As"),
    ("cards.board", ["4d", "5d", "6d", "7h"], r"^cards\.board: 4 cards, the round needs 5"),
    ("cards.player", ["As"], r"^cards\.player: 1 cards, the round needs 2"),
    ("bettors.0.currency", "XYZ", r"^bettors\[0\]\.currency: R6: unknown currency 'XYZ'"),
    ("bettors.0.ante", "0.001",
     r"^bettors\[0\]\.ante: R6: ante 0.001: not a whole number of the smallest USD unit 0.01"),
    ("bettors.0.ante", 10.5, r"^bettors\[0\]\.ante: 10.5 is not a decimal string"),
    ("bettors.0.ante", DELETE, r"^bettors\[0\]\.ante: missing"),
    ("bettors.0.ante", "0", r"^bettors\[0\]\.ante: 0 must be positive"),
    ("bettors.0.bonus", "-5", r"^bettors\[0\]\.bonus: -5 must be positive"),
    ("bettors.0.decisions.preflop", "bet",
     r"^bettors\[0\]\.decisions\.preflop: 'bet' must be one of fold, flop, timeout, disconnect"),
    ("bettors.0.decisions.preflop", {"x": 1}, r"^bettors\[0\]\.decisions\.preflop: \{'x': 1\} must be one of"),
    ("bettors.0.decisions.flop", "fold", r"^bettors\[0\]\.decisions\.flop: 'fold' must be one of bet, check"),
    ("bettors.0.decisions.river", "bet", r"^bettors\[0\]\.decisions\.river: unknown street"),
    ("bettors.0.decisions", {"preflop": "fold", "flop": "bet"}, r"^bettors\[0\]\.decisions\.flop: R2\.3: p1 folded"),
    ("bettors.0.progressive", "yes", r"^bettors\[0\]\.progressive: must be true or false"),
    ("bettors.0.colour", "red", r"^bettors\[0\]\.colour: unknown key"),
    ("bettors", [], r"^bettors: must be a non-empty list"),
    ("pool", "-1", r"^pool: -1 must be positive"),
    ("pool", "1.000001", r"^pool: 1.000001 has more than 5 decimal places"),
    ("pool", DELETE, r"^pool: missing"),
    ("void", {"reason": "earthquake", "stage": "flop"}, r"^void\.reason: 'earthquake' must be one of"),
    ("void", {"reason": "operator", "stage": "showdown"}, r"^void\.stage: 'showdown' must be one of"),
    ("void", {"reason": "shuffler_jam"}, r"^void\.stage: missing"),
    ("pool", "1e400", r"^pool: '1e400' is too large"),
    ("bettors.0.ante", "1e400", r"^bettors\[0\]\.ante: '1e400' is too large"),
    ("void", {"reason": "operator", "stage": "flop"}, r"^cards\.board: 5 cards; at stage flop the board has 0 to 3"),
    ("void", {"reason": "card_exposed_during_betting", "stage": "river"},
     r"^void\.reason: card_exposed_during_betting only before the first card is dealt; 9 card\(s\) .* out"),
    ("limits", {"ante": ["1", "5"]}, r"^bettors\[0\]\.ante: R2\.1: ante 10: above the table maximum 5 USD"),
    ("limits", {"bonus": ["10", "100"]}, r"^bettors\[0\]\.bonus: R2\.1: bonus 5: below the table minimum 10 USD"),
    ("limits", {"ante": ["5", "1"]}, r"^limits\.ante: min 5 is above max 1"),
    ("limits", {"side": ["5", "1"]}, r"^limits\.side: unknown key"),
    ("paytable", 3, r"^paytable: must be a string"),
    ("extra", 1, r"^extra: unknown key"),
]


@pytest.mark.parametrize("path, value, message", BAD_INPUTS, ids=[f"{p}={v!r}"[:60] for p, v, _ in BAD_INPUTS])
def test_bad_input_names_the_field(path: str, value: Any, message: str) -> None:
    data = mutate(path, value)
    with pytest.raises(ScenarioError, match=message):
        play(data, paytable_files.resolve)


def test_progressive_without_ante_is_refused() -> None:
    with pytest.raises(ScenarioError, match=r"bettors\[0\]\.ante: missing \(R2\.1"):
        play(mutate("bettors.0.ante", DELETE), paytable_files.resolve())


def test_decisions_after_the_void_stage_are_refused() -> None:
    data = mutate("void", {"reason": "operator", "stage": "flop"})
    data["cards"]["board"] = []
    with pytest.raises(ScenarioError, match=r"bettors\[0\]\.decisions\.flop: not due before the void at stage flop"):
        play(data, paytable_files.resolve())


@pytest.mark.parametrize("reason, stage, cards, refused", [
    ("card_exposed_during_betting", "betting", {}, None),
    ("card_exposed_during_betting", "hole_cards", {}, None),  # betting closed, no card out yet
    ("card_exposed_during_betting", "hole_cards", {"player": ["As"]}, "only before the first card is dealt"),
    ("dropped_card_seen", "betting", {}, "only once dealing has begun"),
    ("dropped_card_seen", "hole_cards", {"player": ["As"]}, None),
    ("misdeal", "betting", {}, None),
    ("shuffler_jam", "betting", {}, None),
    ("operator", "betting", {}, None),
])
def test_r9_void_reason_must_fit_its_stage(reason: str, stage: str, cards: dict[str, list[str]],
                                           refused: str | None) -> None:
    """R9 [reading]: a card exposed during betting is that incident only before the first card;
    a dropped card seen voids only once dealing has begun (the back office refuses the same)."""
    data = mutate("void", {"reason": reason, "stage": stage})
    data["cards"] = {"player": [], "dealer": [], "board": [], **cards}
    data["bettors"][0]["decisions"] = {}
    if refused is None:
        assert play(data, paytable_files.resolve()).void is not None
    else:
        with pytest.raises(ScenarioError, match=rf"^void\.reason: {reason} {refused}"):
            play(data, paytable_files.resolve())


def test_r9_a_deck_scenario_counts_the_cards_its_stage_has_dealt() -> None:
    data = mutate("void", {"reason": "card_exposed_during_betting", "stage": "flop"})
    del data["cards"]
    data["deck"] = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
    data["bettors"][0]["decisions"] = {"preflop": "flop"}
    with pytest.raises(ScenarioError, match=r"^void\.reason: .* 4 card\(s\) of the round are out"):
        play(data, paytable_files.resolve())


def test_compare_matches_lists_by_id_and_decimals_by_value() -> None:
    got = {"pool": {"after": "1.90"}, "bettors": [{"id": "a", "net": "5"}, {"id": "b", "net": "-1"}]}
    assert compare({"pool": {"after": "1.9"}, "bettors": [{"id": "b", "net": "-1.00"}]}, got) == []
    assert compare({"bettors": [{"id": "a", "net": "6"}]}, got) == ['bettors[a].net expected "6" got "5"']
    assert compare({"bettors": [{"id": "c"}]}, got) == ['bettors[c] expected {"id":"c"} got nothing']
    assert compare({"pool": {"paid": "1"}}, got) == ['pool.paid expected "1" got nothing']


def test_compare_an_empty_list_expects_an_empty_one_and_null_expects_nothing() -> None:
    got = {"awards": [{"id": "a", "amount": "5"}], "none": []}
    assert compare({"awards": []}, got) == ['awards expected [] got [{"id":"a","amount":"5"}]']
    assert compare({"none": []}, got) == []
    assert compare({"void": None}, got) == []  # a settled round's output has no void
    assert compare({"void": {"reason": "misdeal"}}, got) == ['void expected {"reason":"misdeal"} got nothing']


JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=True),
                        st.sampled_from(["", "x", "As", "10", "-5", "0.001", "1e400", "fold", "bet", "flop",
                                         "timeout", "USD", "KRW", "shuffler_jam", "turn"]),
                        st.lists(st.sampled_from(["As", "Kd", "2c", "2c"]), max_size=3),
                        st.dictionaries(st.sampled_from(["a", "reason", "stage"]), st.sampled_from(["x", "flop"]),
                                        max_size=2))


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        found += _paths(child, (*prefix, key))
    return found


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_malformed_scenario_is_settled_or_refused_never_a_crash(data: st.DataObject, standard) -> None:
    """docs/scenarios.md "Bad input": bad input is a clear error naming the field, never a traceback."""
    document = json.loads(data.draw(st.sampled_from(GOLDEN)).read_text())
    document.pop("expected")
    document.pop("paytable", None)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(document)))
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = data.draw(JSON_VALUES)
    try:
        settlement_json(play(document, standard))
    except ScenarioError as error:
        assert str(error).split(":")[0]  # names a field
