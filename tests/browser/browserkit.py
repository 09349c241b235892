"""Constants and helpers shared by the browser tests and their fixtures."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path(os.environ.get("RULESLAWYER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage"]
XSS_MARK = "__rlxss"
HOUSE_RULE = f"Never trust <img src=x onerror={XSS_MARK}=1> in a house rule."
HOUSE_ID = "house/extras/table-manners#1"
STARTUP_TIMEOUT = 60.0


def require(what: str) -> None:
    """Skip (or, under ``CI=true``, fail) because ``what`` is missing."""
    import pytest

    msg = f"browser tests need {what}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(msg + " (CI=true: a missing browser fails the run; `make browser` installs it)")
    pytest.skip(msg + "; run `make browser`")


def shot(page, name: str) -> None:
    """Save a screenshot as ``test-artifacts/<lab|voila>-<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{page.kind}-{name}.png"), full_page=False)


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, proc: subprocess.Popen, log: Path, timeout: float = STARTUP_TIMEOUT) -> None:
    """Poll ``url`` until it answers with any HTTP status (the server is up).

    Raises:
        RuntimeError: the server process exited, or ``url`` did not answer within ``timeout`` s
            (the message ends with the tail of ``log``).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer in {timeout:.0f} s:\n{log.read_text()[-3000:]}")
