"""ARCHITECTURE.md: the layering is checked, not hoped for (import-linter contracts in pyproject)."""

from __future__ import annotations

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
