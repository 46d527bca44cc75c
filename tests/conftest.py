"""Settings for the whole test suite.

With RETRO_NO_SKIPS=1 (as .ci/run sets) a skipped test fails the run: in CI
every test must run, and a skip that hides a missing tool or source shows up
as a failure with its reason.
"""
from __future__ import annotations

import os


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("RETRO_NO_SKIPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped and exitstatus == 0:
        session.exitstatus = 1
        reporter.write_line(f"retro: {len(skipped)} test(s) skipped, and CI "
                            "allows none (RETRO_NO_SKIPS=1)", red=True)
