"""Builds killed mid-write leave ``.rules.db.tmp-PID`` files; the next build removes the stale ones.

Stale: the process is gone, or the file is older than limits.TEMP_FILE_AGE_S (the PID may be in use
again). A live build's temporary file, and anything not named like one, is left alone. Once, kill -9
during 24 builds left 35 temporary files beside the database.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ruleslawyer import rulesdb
from ruleslawyer.limits import TEMP_FILE_AGE_S

CLI = [sys.executable, "-m", "ruleslawyer.cli"]


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".tmp-" in p.name)


def test_the_next_build_removes_dead_and_old_temp_files_and_keeps_live_and_foreign_ones(tmp_path):
    target = tmp_path / "rules.db"
    dead = _dead_pid()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        names = {f".rules.db.tmp-{dead}": "stale", f".rules.db.tmp-{dead}-journal": "stale",
                 f".rules.db.tmp-{sleeper.pid}": "live", f".rules.db.tmp-{sleeper.pid}-journal": "live",
                 ".rules.db.tmp-notapid": "foreign", ".other.db.tmp-1": "foreign", "rules.db.tmp-1": "foreign",
                 ".rules.db.tmp-99999999999999999999": "stale"}
        for name in names:
            (tmp_path / name).write_bytes(b"half a database")
        old = tmp_path / f".rules.db.tmp-{os.getppid()}"  # a live process, but two hours old: reused PID
        old.write_bytes(b"half a database")
        two_hours_ago = time.time() - 2 * TEMP_FILE_AGE_S
        os.utime(old, (two_hours_ago, two_hours_ago))
        rulesdb.build(target)
        kept = {n for n, why in names.items() if why != "stale"}
        assert set(_temps(tmp_path)) == kept
    finally:
        sleeper.kill()
        sleeper.wait()


def test_kill_9_during_builds_leaves_nothing_after_the_next_build(tmp_path):
    target = tmp_path / "rules.db"
    rulesdb.build(target)
    killed = []
    for _ in range(4):
        proc = subprocess.Popen([*CLI, "build", "--out", str(target)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        tmp = tmp_path / f".rules.db.tmp-{proc.pid}"
        deadline = time.monotonic() + 60
        while not tmp.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if tmp.exists():
            killed.append(proc.pid)
        # each build removes what the builds killed before it left
        assert {name.split("-")[1] for name in _temps(tmp_path)} <= {str(proc.pid)}
    assert killed, "no build was killed while writing"
    before = target.read_bytes()
    rulesdb.build(target)
    assert _temps(tmp_path) == []
    assert target.read_bytes() == before  # the killed builds never touched the database
