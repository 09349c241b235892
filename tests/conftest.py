"""Fixtures for every test under tests/."""

import shutil
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def shipped_db(tmp_path_factory):
    """``shipped_db(path) -> path``: puts a rules database of the shipped sources alone (no house rules)
    at ``path``: a copy of this worker process's test database (``$RULESLAWYER_TEST_DB``, built on first
    use anyway), checked fresh and sound once, or of one built here if that one holds house rules.

    For a test that needs a database of its own (to edit, damage, delete, or to hand a second handle)
    but does not test the build: a copy takes about a millisecond, a build ~0.1 CPU-s (0.25 the first
    of a process). The copy is sealed and fresh as the build left it; its first open checks its seal.
    """
    import os
    import sqlite3

    from ruleslawyer.rulesdb import build, ensure_database

    template = tmp_path_factory.mktemp("shipped") / "rules.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("RULESLAWYER_HOUSE_RULES", raising=False)
        ensure_database(os.environ["RULESLAWYER_TEST_DB"])
        shutil.copyfile(os.environ["RULESLAWYER_TEST_DB"], template)
        conn = sqlite3.connect(f"{template.resolve().as_uri()}?mode=ro", uri=True)
        try:
            house = conn.execute("SELECT value FROM meta WHERE key = 'house_rules'").fetchone()
        finally:
            conn.close()
        if house != ("",):
            build(template, house_rules=None)

    def copy(path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(template, path)
        return path

    return copy


@pytest.fixture(autouse=True)
def _no_session_ruleset_left_behind():
    """A test that picks a ruleset in a search panel (the session's default on its rules handle)
    leaves none for the next test; nor does a test leave a name of the rulesdb package patched."""
    yield
    from ruleslawyer.rulesdb import session

    session._session.clear()
    _package_names_are_their_modules()


def _package_names_are_their_modules():
    """Every name ``ruleslawyer.rulesdb`` has loaded lazily (``__getattr__`` keeps it in the package) is
    still its module's own object once a test's patches are undone.

    A test that patches both ``lookup.X`` and ``rulesdb.X`` must patch the package first: patched the
    other way round, the package's lazy ``__getattr__`` reads the stand-in already in ``lookup``, keeps
    it, and monkeypatch "restores" the stand-in, left for every later test of that worker process.
    """
    import sys

    package = sys.modules["ruleslawyer.rulesdb"]
    loaded = vars(package)
    for name, module in package._EXPORTS.items():
        if name in loaded:
            real = getattr(sys.modules[f"ruleslawyer.rulesdb.{module}"], name)
            assert loaded[name] is real, f"ruleslawyer.rulesdb.{name} is left patched: {loaded[name]!r}"
