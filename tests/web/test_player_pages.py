"""Small things the players' pages say and show: the results strip's colours for every R3 outcome
and R9 void, the footer's sentence on how a table deals its cards (R1), the R9 notices and a
suspended table in the player's language, and the account page where a player changes their
password."""

from __future__ import annotations

import re
from pathlib import Path

from casino_holdem.core.settlement import Result

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "casino_holdem" / "static"


def test_r3_every_result_of_the_strip_has_its_colour() -> None:
    """The strip's entries are classed ``result-<the round's result>`` (``result-void`` for a void
    round, R9) and app.css colours each of them: a winner's, a loser's, a push's and a void's."""
    script = (STATIC / "table_panels.js").read_text(encoding="utf-8")
    assert 'element("li", `result-${r.void ? "void" : r.result}`)' in script
    styled = set(re.findall(r"\.strip \.result-(\w+)", (STATIC / "app.css").read_text(encoding="utf-8")))
    assert styled == {result.value for result in Result}
    words = (STATIC / "table_view.js").read_text(encoding="utf-8")
    assert all(f"{result.value}: " in words for result in Result)  # each result named in words, not a slug
