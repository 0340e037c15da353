"""Issue 10: a payload goes on the wire as one frame, encoded once however many streams send it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_holdem.events import wire

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=20)


@given(st.dictionaries(st.text(), JSON, max_size=6))
def test_a_frame_is_byte_for_byte_the_json_of_its_payload(payload) -> None:
    text = wire.frame(payload).text
    assert text == f"event: state\ndata: {json.dumps(payload)}\n\n"


def test_parts_shared_by_the_payloads_of_one_build_are_encoded_once(monkeypatch) -> None:
    public = {"tables": [{"name": "Aria", "phase": "betting"}]}
    payloads = [{"server_time": "t", **public, "balance": {"balance": str(n)}} for n in range(3)]
    encoded: list[object] = []
    dumps = json.dumps
    monkeypatch.setattr(wire.json, "dumps", lambda value, **kw: encoded.append(value) or dumps(value, **kw))
    memo = wire.Memo()
    frames = [wire.frame(payload, memo) for payload in payloads]
    assert sum(1 for value in encoded if value is public["tables"]) == 1
    assert [json.loads(frame.text.split("data: ", 1)[1]) for frame in frames] == payloads


@pytest.mark.parametrize(("before", "after", "changed"), [
    ({"server_time": "1", "round": {"phase": "flop"}}, {"server_time": "2", "round": {"phase": "flop"}}, False),
    ({"server_time": "1", "round": {"phase": "flop"}}, {"server_time": "1", "round": {"phase": "turn"}}, True),
    ({"balance": {"available": "10"}}, {"balance": {"available": "9"}}, True),
])
def test_the_servers_clock_alone_never_makes_a_frame_new(before, after, changed) -> None:
    assert (wire.frame(before).key != wire.frame(after).key) is changed
