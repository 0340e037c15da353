"""Where the project's files live, overridable from the environment (for deployments)."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def paytable_dir() -> Path:
    """The folder of versioned paytable files: ``CASINO_PAYTABLES_DIR`` or the project's ``paytables/``."""
    return Path(os.environ.get("CASINO_PAYTABLES_DIR", PROJECT_ROOT / "paytables"))
