"""Serving a class: `ruleslawyer app` culls the kernel of a closed tab within the configured time and
keeps the kernel of a tab still open. The measured time goes to test-artifacts/culling.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from browserkit import ARTIFACTS, free_port, new_page, stop_group, tab, wait_http

CULL_IDLE_TIMEOUT = 3  # seconds a kernel without a tab may idle
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


@pytest.fixture(scope="module")
def culling_app(served):
    """``ruleslawyer app`` on a free port with a short cull timeout (the command `make app` runs)."""
    port = free_port()
    log = served["base"] / "culling-app.log"
    cmd = [sys.executable, "-m", "ruleslawyer.cli", "app", "--host", "127.0.0.1", "--port", str(port),
           "--cull-idle-timeout", str(CULL_IDLE_TIMEOUT), "--cull-interval", str(CULL_INTERVAL)]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=served["env"], stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_http(f"http://127.0.0.1:{port}/voila/static/", proc, log)
        yield proc, f"http://127.0.0.1:{port}/"
    finally:
        stop_group(proc)


def test_closing_a_tab_frees_its_kernel_and_an_open_tab_keeps_its_own(browser, culling_app):
    proc, url = culling_app
    # two tabs, two kernels (children of Voila, itself a child of `ruleslawyer app`), opened one after
    # the other: a kernel whose tab is slow to connect (two loading at once on a busy machine) could
    # idle past the 3 s timeout unconnected and be culled before its app shows
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
    assert freed <= DEADLINE, f"the closed tab's kernel lived {freed:.1f} s (limit {DEADLINE} s)"
    # the open tab idles past the timeout and three more checks of the culler (the wait for the closed
    # tab's kernel counts: both idled from the same moment) and keeps working: connected, never culled
    time.sleep(max(0.0, idle_since + CULL_IDLE_TIMEOUT + 3 * CULL_INTERVAL - time.monotonic()))
    assert len(kernels(proc)) == 1
    tab(page, "Tables")
    panel = page.locator(".rl-table-panel").first
    panel.locator("button.rl-roll").click()
    panel.locator(".rl-result-line").wait_for(state="visible")
    staying.close()
    wait_kernels(proc, 0, DEADLINE + 5)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "culling.json").write_text(json.dumps({
        "cull_idle_timeout_s": CULL_IDLE_TIMEOUT, "cull_interval_s": CULL_INTERVAL,
        "closed_tab_kernel_freed_after_s": round(freed, 2)}, indent=2))
