"""Eight processes searching while the database file is deleted and replaced under them all succeed.

Each search reconnects by path (as every CLI run does); a file that vanished between the check and
the open is built (or found rebuilt by another process) and opened once more. Deleting the database
while 8 processes searched once failed 5 of 178 searches.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path


WORKER = """
import os, sys, warnings
warnings.simplefilter("ignore")
from ruleslawyer import rulesdb
from ruleslawyer.rulesdb.handle import open_rules

path, stop, ready = sys.argv[1], sys.argv[2], sys.argv[3]
searches = failures = 0
while not os.path.exists(stop):
    if searches == 1:
        open(os.path.join(ready, str(os.getpid())), "w").close()  # searching: the changes may begin
    rulesdb.reset_cache()  # reconnect by path, as a new command would
    try:
        hits = rulesdb.search("parry" if searches % 2 else "fighting on", rules=open_rules(path))
        assert len(hits) > 0, "no hits"
        assert open_rules(path).rule("mastery/combat/death/fighting-on#2").text
    except Exception as exc:
        failures += 1
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
    searches += 1
print(searches, failures)
"""

WORKERS = 8
CHANGES = 16  # every fourth deletes the file, the others replace it (another process's rebuild landing)
CHANGE_EVERY_S = 0.15  # about one rebuild: a deletion's rebuild may still be landing as the next change comes


def test_eight_processes_searching_while_the_file_is_deleted_and_replaced_all_succeed(tmp_path, shipped_db):
    good = shipped_db(tmp_path / "good.db")
    folder = tmp_path / "dbs"
    folder.mkdir()
    path = folder / "rules.db"
    shutil.copyfile(good, path)
    stop, ready = tmp_path / "stop", tmp_path / "ready"
    ready.mkdir()
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(path), str(stop), str(ready)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(WORKERS)]
    try:
        deadline = time.monotonic() + 60
        while len(list(ready.iterdir())) < WORKERS:  # every one has searched once: all are searching now
            assert time.monotonic() < deadline and all(p.poll() is None for p in procs), "a searcher did not start"
            time.sleep(0.05)
        for change in range(CHANGES):
            if change % 4:
                shutil.copyfile(good, folder / "replacement")
                os.replace(folder / "replacement", path)
            else:
                path.unlink(missing_ok=True)
            time.sleep(CHANGE_EVERY_S)
        time.sleep(3 * CHANGE_EVERY_S)
    finally:
        stop.touch()
    results = [p.communicate(timeout=120) for p in procs]
    counts = [tuple(map(int, out.split())) for out, _ in results]
    errors = [err.strip() for _, err in results if err.strip()]
    assert min(n for n, _ in counts) >= 1 and sum(n for n, _ in counts) >= 4 * WORKERS, counts
    assert [f for _, f in counts] == [0] * WORKERS, errors
    # no temporary file left behind by the builds the deletions caused
    assert sorted(p.name for p in folder.iterdir()) in (["rules.db"], [])


def test_a_reconnect_outlasts_the_file_vanishing_and_coming_back_between_check_and_open(tmp_path, monkeypatch,
                                                                                       shipped_db):
    # The race the eight searchers meet, made certain: the open fails as if the file vanished just after
    # the check, while another process has already put a file back (so it exists again). The handle
    # used to give up at once when the file existed after a failed open; it now checks and opens again.
    import pytest

    from ruleslawyer.errors import DatabaseError
    from ruleslawyer.rulesdb import db as dbmod
    from ruleslawyer.rulesdb.handle import OPEN_ATTEMPTS, open_rules

    path = shipped_db(tmp_path / "rules.db")
    real = dbmod.open_read_only
    failures = {"left": 3}

    def flaky(p):
        if failures["left"]:
            failures["left"] -= 1
            raise DatabaseError(f"cannot open the rules database {p}: unable to open database file")
        return real(p)

    monkeypatch.setattr(dbmod, "open_read_only", flaky)
    rules = open_rules(path)
    assert rules.rule("mastery/combat/death/fighting-on#2").text  # opened at the fourth try
    assert failures["left"] == 0
    # a file that never opens still fails, after OPEN_ATTEMPTS tries, naming the file
    failures["left"] = OPEN_ATTEMPTS
    other = open_rules(tmp_path / "other.db")
    shipped_db(tmp_path / "other.db")
    with pytest.raises(DatabaseError, match="other.db"):
        other.connection()
    assert failures["left"] == 0
