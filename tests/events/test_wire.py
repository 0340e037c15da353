"""Issue 10: a payload goes on the wire as one frame, encoded once however many streams send it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_holdem.events import wire

#: what a page's state holds: text (any character a database's UTF-8 text can hold: no lone
#: surrogate), whole numbers of 64 bits at most (ids, counts), truth values and nulls
TEXT = st.text(st.characters(blacklist_categories=("Cs",)))
JSON = st.recursive(st.none() | st.booleans() | st.integers(-(2 ** 63), 2 ** 63 - 1) | TEXT,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                    max_leaves=20)


def _data(frame: wire.Frame) -> bytes:
    head, _, data = frame.body.partition(b"data: ")
    assert head == b"event: state\n" and data.endswith(b"\n\n") and b"\n" not in data[:-2]
    return data[:-2]


@given(st.dictionaries(TEXT, JSON, max_size=6))
def test_a_frame_is_byte_for_byte_the_json_of_its_payload(payload) -> None:
    data = _data(wire.frame(payload))
    assert data == wire.encode(payload)
    assert json.loads(data) == payload  # the standard library reads it as the page's JSON.parse does


def test_a_number_as_a_key_is_written_as_text_as_json_writes_it() -> None:
    assert json.loads(_data(wire.frame({"rules": {5: "five"}}))) == {"rules": {"5": "five"}}


def test_parts_shared_by_the_payloads_of_one_build_are_encoded_once(monkeypatch) -> None:
    public = {"tables": [{"name": "Aria", "phase": "betting"}]}
    payloads = [{"server_time": "t", **public, "balance": {"balance": str(n)}} for n in range(3)]
    encoded: list[object] = []
    plain = wire.encode
    monkeypatch.setattr(wire, "encode", lambda value: encoded.append(value) or plain(value))
    memo = wire.Memo()
    frames = [wire.frame(payload, memo) for payload in payloads]
    assert sum(1 for value in encoded if value is public["tables"]) == 1
    assert [json.loads(_data(frame)) for frame in frames] == payloads


@pytest.mark.parametrize(("before", "after", "changed"), [
    ({"server_time": "1", "round": {"phase": "flop"}}, {"server_time": "2", "round": {"phase": "flop"}}, False),
    ({"server_time": "1", "round": {"phase": "flop"}}, {"server_time": "1", "round": {"phase": "turn"}}, True),
    ({"balance": {"available": "10"}}, {"balance": {"available": "9"}}, True),
])
def test_the_servers_clock_alone_never_makes_a_frame_new(before, after, changed) -> None:
    assert (wire.frame(before).key != wire.frame(after).key) is changed
