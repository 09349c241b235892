"""The harness itself: a missing browser skips locally and fails under CI=true."""

import pytest
from browserkit import require


def test_missing_browser_skips_locally(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="browser tests need /nowhere/chromium"):
        require("/nowhere/chromium")


def test_missing_browser_fails_under_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        require("/nowhere/chromium")
