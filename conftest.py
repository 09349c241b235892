"""Test-wide setup: every test run (and every notebook kernel it starts) uses its own database."""

import os
import tempfile


def pytest_configure(config):
    # Set before any kernel starts so nbval's kernels inherit it; never touch the user's cache.
    if "RULESLAWYER_TEST_DB" not in os.environ:
        os.environ["RULESLAWYER_TEST_DB"] = os.path.join(tempfile.mkdtemp(prefix="ruleslawyer-test-"), "rules.db")
    os.environ["RULESLAWYER_DB"] = os.environ["RULESLAWYER_TEST_DB"]
    os.environ.pop("RULESLAWYER_HOUSE_RULES", None)
