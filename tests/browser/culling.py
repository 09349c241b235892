"""The culling scenario of test_kernels_browser.py: ``ruleslawyer app`` (the command `make app` runs)
with a short cull timeout, two tabs, one closed, one kept open.

Most of the scenario is waiting for the server's culler, so the ``culling`` fixture (conftest.py) runs
it in a thread of its own, with its own Playwright and chromium (Playwright's sync API is not
thread-safe), as soon as the shared pages are up: its waits overlap the tests that follow, and the
test reads what it observed.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from browserkit import CHROMIUM_ARGS, free_port, new_page, tab, wait_http

#: seconds a kernel without a tab may idle: long enough that a tab still connecting on a loaded
#: machine (the scenario runs beside the other browser tests) is never culled before its app shows
CULL_IDLE_TIMEOUT = 8
CULL_INTERVAL = 1  # seconds between the server's checks
#: The culler shuts a kernel down at its first check after it has idled CULL_IDLE_TIMEOUT seconds
#: with no connection: at most timeout + interval after the tab closes, plus the shutdown itself.
DEADLINE = CULL_IDLE_TIMEOUT + CULL_INTERVAL + 5


def kernels(server: subprocess.Popen) -> list:
    """The kernel processes the server started (ipykernel children of the server process)."""
    import psutil

    out = []
    for child in psutil.Process(server.pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                out.append(child)
        except psutil.NoSuchProcess:
            pass
    return out


def wait_kernels(server, n: int, timeout: float) -> float:
    """Seconds until exactly ``n`` kernels run (fails after ``timeout``)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if len(kernels(server)) == n:
            return time.monotonic() - t0
        time.sleep(0.1)
    raise AssertionError(f"{len(kernels(server))} kernels after {timeout} s, expected {n}")


def start_app(env: dict, log: Path) -> tuple[subprocess.Popen, int]:
    """``ruleslawyer app`` on a free port with the short cull timeout, in a session of its own (stop it
    with :func:`browserkit.stop_group`); -> (process, port). Does not wait for it to answer."""
    port = free_port()
    cmd = [sys.executable, "-m", "ruleslawyer.cli", "app", "--host", "127.0.0.1", "--port", str(port),
           "--cull-idle-timeout", str(CULL_IDLE_TIMEOUT), "--cull-interval", str(CULL_INTERVAL)]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, port


def scenario(chromium: str, proc: subprocess.Popen, port: int, log: Path) -> dict:
    """Open two tabs on the app, close one, keep the other past the timeout and use it, then close it.

    Returns what was seen: ``freed_s`` (seconds from closing the first tab until one kernel was left),
    ``kernels_after_idle`` (kernels once the open tab idled past the timeout and three more checks;
    the open tab's Tables panel then rolls and shows its result line) and ``last_freed_s`` (seconds
    from closing the second tab until no kernel was left). Raises AssertionError when a wait for the
    kernels runs out (see :func:`wait_kernels`), a Playwright error when the page does not answer.
    """
    from playwright.sync_api import sync_playwright

    url = f"http://127.0.0.1:{port}/"
    wait_http(url + "voila/static/", proc, log)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        try:
            return _two_tabs(browser, proc, url)
        finally:
            browser.close()


def _two_tabs(browser, proc: subprocess.Popen, url: str) -> dict:
    # two tabs, two kernels (children of Voila, itself a child of `ruleslawyer app`), opened one after
    # the other: a kernel whose tab is slow to connect (two loading at once on a busy machine) could
    # idle past the timeout unconnected and be culled before its app shows
    opened = []
    for _ in range(2):
        context, page = new_page(browser, [])
        page.goto(url)
        page.locator(".rl-app").first.wait_for(state="visible", timeout=60_000)
        opened.append((context, page))
    wait_kernels(proc, 2, 30)
    idle_since = time.monotonic()  # the last thing either tab asked of its kernel
    (closing, _), (staying, page) = opened
    closing.close()
    freed = wait_kernels(proc, 1, DEADLINE + 5)
    # the open tab idles past the timeout and three more checks of the culler (the wait for the closed
    # tab's kernel counts: both idled from the same moment) and keeps working: connected, never culled
    time.sleep(max(0.0, idle_since + CULL_IDLE_TIMEOUT + 3 * CULL_INTERVAL - time.monotonic()))
    after_idle = len(kernels(proc))
    tab(page, "Tables")
    panel = page.locator(".rl-table-panel").first
    panel.locator("button.rl-roll").click()
    panel.locator(".rl-result-line").wait_for(state="visible")
    staying.close()
    last = wait_kernels(proc, 0, DEADLINE + 5)
    return {"freed_s": freed, "kernels_after_idle": after_idle, "last_freed_s": last}
