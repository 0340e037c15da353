"""The README's Architecture: the layering is checked, not hoped for (import-linter contracts in pyproject)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if lint is None:
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    done = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_documents_stand_alone() -> None:
    """A clone has no rule book beside it: README, docs and templates point to docs/rules.md."""
    documents = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "templates").rglob("*.html")]
    assert [path.name for path in documents if "shared/" in path.read_text(encoding="utf-8")] == []
    assert "docs/rules.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_rule_is_one_hop_from_its_number() -> None:
    """docs/rules.md ends with an index: a row for each of R1-R9 naming the modules that hold the
    rule, and every module it names exists (a split or a move updates the index)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    index = text[text.index("## Where each rule lives in the code"):]
    rows = {line.split("|")[1].strip(): line for line in index.splitlines() if line.startswith("| R")}
    assert sorted(rows) == [f"R{number}" for number in range(1, 10)]
    named = {path for line in rows.values() for path in re.findall(r"`([\w/]+\.py)`", line)}
    assert all(path.startswith("casino_holdem/") for path in named)
    assert sorted(path for path in named if not (ROOT / path).is_file()) == []
