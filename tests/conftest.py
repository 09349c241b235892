"""Fixtures for every test under tests/."""

import pytest


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
