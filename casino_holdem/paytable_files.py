"""The operator's library of versioned paytable files on disk (``paytables/<id>-v<version>.toml``).

The pure core parses bytes (:func:`casino_holdem.core.paytable.parse_paytable`); this module finds
and reads files: by id (newest version), by ``id@version``, or by path, and by the SHA-256 a
settled round recorded, so any payout can be re-derived.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .core.errors import InvalidPaytable
from .core.paytable import FILE_NAME, Paytable, parse_paytable
from .settings import paytable_dir

DEFAULT_REFERENCE = "standard"


def load_paytable(path: str | Path) -> Paytable:
    """Read and validate one paytable file."""
    path = Path(path)
    try:
        content = path.read_bytes()
    except OSError as error:
        raise InvalidPaytable([f"cannot read the file ({error.strerror})"], str(path)) from None
    return parse_paytable(content, source=str(path))


def paytable_path(reference: str, directory: Path) -> Path:
    """Resolve ``"standard"`` (the newest version), ``"standard@1"`` or a file path."""
    name, _, version = reference.partition("@")
    if "/" in reference or reference.endswith(".toml"):
        return Path(reference)
    if version:
        return directory / f"{name}-v{version}.toml"
    versions = sorted(
        (int(m["version"]), path) for path in directory.glob(f"{name}-v*.toml")
        if (m := FILE_NAME.match(path.name)) and m["id"] == name
    )
    if not versions:
        raise InvalidPaytable([f"no paytable {name!r} in {directory}"], reference)
    return versions[-1][1]


def resolve(reference: str | None = None) -> Paytable:
    """Load ``reference`` ("standard", "standard@1" or a file path); None = the newest standard.
    Parsed files are cached by absolute path and modification time (pages ask on every request)."""
    path = paytable_path(reference or DEFAULT_REFERENCE, paytable_dir())
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return load_paytable(path)  # raises the InvalidPaytable that says why
    return _cached(path.resolve(), stamp)


@lru_cache(maxsize=64)
def _cached(path: Path, mtime_ns: int) -> Paytable:
    """One parse per file version (the modification time is part of the key)."""
    return load_paytable(path)


def by_version(paytable_id: str, version: int, sha256: str | None = None) -> Paytable:
    """The exact file a round was settled under; refuses a file whose bytes changed since (a used
    version is never edited)."""
    path = paytable_dir() / f"{paytable_id}-v{version}.toml"
    try:
        paytable = _cached(path.resolve(), path.stat().st_mtime_ns)
    except OSError:
        raise InvalidPaytable([f"no paytable file {path.name} in {path.parent}"], f"{paytable_id}@{version}") from None
    if sha256 is not None and paytable.sha256 != sha256:
        raise InvalidPaytable([f"{path.name} has SHA-256 {paytable.sha256}, the round recorded {sha256}: "
                               "a used paytable version was edited"], f"{paytable_id}@{version}")
    return paytable
