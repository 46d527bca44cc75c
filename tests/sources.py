"""The original sources, for the tests that run or read them.

The programs Retro ports (the AWK mind reader, above all) are not part of
the repository: a test that needs one assembles it at test time from the
source documents that sit beside a checkout, in ../shared/seeds/ (or in the
directory named by RETRO_SOURCES). On a machine without them such a test is
skipped with that reason, never silently; with RETRO_REQUIRE_SOURCES=1 (as
.ci/run sets) their absence is a failure instead.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def sources_dir() -> Path | None:
    """Where the source documents are, or None if they are not here."""
    named = os.environ.get("RETRO_SOURCES")
    candidates = [Path(named)] if named else []
    candidates.append(ROOT.parent / "shared" / "seeds")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


def source_text(prefix: str) -> str:
    """The text of the source document whose file name starts with prefix.

    Skips the calling test (or fails it, under RETRO_REQUIRE_SOURCES=1)
    when the documents are not on this machine.
    """
    where = sources_dir()
    found = sorted(where.glob(f"{prefix}*")) if where else []
    if not found:
        reason = (f"the source document {prefix}* is not on this machine "
                  f"(looked in RETRO_SOURCES and {ROOT.parent / 'shared' / 'seeds'})")
        if os.environ.get("RETRO_REQUIRE_SOURCES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return found[0].read_text(encoding="utf-8")
