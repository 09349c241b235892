"""Serving a class: `ruleslawyer app` culls the kernel of a closed tab within the configured time and
keeps the kernel of a tab still open. The measured time goes to test-artifacts/culling.json.

The scenario (culling.py) runs in a thread while the other browser tests run (fixture ``culling``);
this test checks what it saw.
"""

from __future__ import annotations

import json

from browserkit import ARTIFACTS
from culling import CULL_IDLE_TIMEOUT, CULL_INTERVAL, DEADLINE


def test_closing_a_tab_frees_its_kernel_and_an_open_tab_keeps_its_own(culling):
    seen = culling.result(timeout=300)  # re-raises what failed in the scenario
    freed = seen["freed_s"]
    assert freed <= DEADLINE, f"the closed tab's kernel lived {freed:.1f} s (limit {DEADLINE} s)"
    # the open tab idled past the timeout and three more checks of the culler: connected, never culled
    assert seen["kernels_after_idle"] == 1
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "culling.json").write_text(json.dumps({
        "cull_idle_timeout_s": CULL_IDLE_TIMEOUT, "cull_interval_s": CULL_INTERVAL,
        "closed_tab_kernel_freed_after_s": round(freed, 2)}, indent=2))
