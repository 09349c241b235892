"""Fixtures for every test under tests/."""

import pytest


@pytest.fixture(autouse=True)
def _no_session_ruleset_left_behind():
    """A test that picks a ruleset in a search panel (the session's default on its rules handle)
    leaves none for the next test."""
    yield
    from ruleslawyer.rulesdb import session

    session._session.clear()
