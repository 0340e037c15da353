"""The paytable library on disk (casino_holdem/paytable_files.py): a file by id (the newest
version), by ``id@version`` or by path, and the exact version a settled round recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino_holdem import paytable_files
from casino_holdem.core.errors import InvalidPaytable

STANDARD = Path("paytables/standard-v1.toml")


def test_resolve_by_id_version_and_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert paytable_files.resolve("standard").ref == paytable_files.resolve("standard@1").ref == "standard@1"
    assert paytable_files.resolve(str(STANDARD)).sha256 == paytable_files.resolve(None).sha256
    (tmp_path / "standard-v1.toml").write_bytes(STANDARD.read_bytes())
    (tmp_path / "standard-v2.toml").write_bytes(STANDARD.read_bytes().replace(b"version = 1", b"version = 2"))
    monkeypatch.setenv("CASINO_PAYTABLES_DIR", str(tmp_path))
    assert paytable_files.resolve("standard").version == 2  # the newest version when none is given
    with pytest.raises(InvalidPaytable, match="no paytable 'house'"):
        paytable_files.resolve("house")


def test_a_used_version_that_was_edited_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorded = paytable_files.load_paytable(STANDARD).sha256
    (tmp_path / "standard-v1.toml").write_bytes(STANDARD.read_bytes() + b"\n# edited\n")
    monkeypatch.setenv("CASINO_PAYTABLES_DIR", str(tmp_path))
    with pytest.raises(InvalidPaytable, match="a used paytable version was edited"):
        paytable_files.by_version("standard", 1, recorded)
    with pytest.raises(InvalidPaytable, match="no paytable file standard-v9.toml"):
        paytable_files.by_version("standard", 9)


def test_an_unreadable_file_is_one_clear_problem() -> None:
    with pytest.raises(InvalidPaytable, match=r"^nowhere\.toml: cannot read the file"):
        paytable_files.load_paytable("nowhere.toml")
