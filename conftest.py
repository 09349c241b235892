"""Test-wide setup: every test run (and every notebook kernel it starts) uses its own database.

Under pytest-xdist (``make test`` runs ``pytest -n <cores + 1> --dist loadfile --no-loadscope-reorder``):

* every worker process gets a database of its own (``rules-gw0.db``, ``rules-gw1.db``, ... beside the
  run's ``$RULESLAWYER_TEST_DB``), so a worker never sees another's build or rebuild;
* the tests of one file run on one worker, in file order (``--dist loadfile``): module-scoped fixtures
  are built once, a test may read what an earlier one of its file recorded, and a notebook's cells run
  in order in one kernel, as nbval needs. The files of a folder in ``SHARED_SESSION_FOLDERS`` run
  together on one worker: they share session-scoped servers and a browser (tests/browser/conftest.py)
  that would otherwise start once per worker. The units go out in collection order
  (``--no-loadscope-reorder``), so the browser tests, the longest unit, start first.

The grouping is done here by the scheduler (``pytest_xdist_make_scheduler``), from each test's file,
not with ``xdist_group`` marks: ``--dist loadgroup`` silently stops grouping under pytest 9.2
(pytest-dev/pytest-xdist#1386).

Every test process collects its cyclic garbage less often (``GC_THRESHOLD``) and, once the tests are
collected, leaves what collection built out of later collections (``gc.freeze``): the suite's Python
work costs about 7 % less CPU (run alone in one process, the tests outside tests/browser took 71 CPU-s
against 77). Reference counting still frees everything at once; only cycles wait longer.
"""

import gc
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

import pytest

#: Folders whose test files share session-scoped servers: all their tests run on one worker.
SHARED_SESSION_FOLDERS = ("tests/browser/",)
#: A RAM-backed folder for a parallel run's tmp_path trees where the system has one: the tests write
#: some fifteen thousand small files and build about a hundred databases, and a small file written to
#: disk costs ~10x one written to memory. (Not the test database or TMPDIR: the notebooks' saved
#: outputs show those paths, sanitized as /tmp/..., notebooks/nbval-sanitize.cfg.)
RAM_TMP = Path("/dev/shm")
#: A failed run keeps its tmp_path tree for a look (as pytest keeps its own); a later run removes
#: this user's trees in RAM_TMP older than this many seconds.
RAM_TMP_KEEP_S = 3600
#: Free bytes RAM_TMP must have to be used (a run writes about a hundred databases of ~1.5 MiB).
RAM_TMP_NEEDS = 2 * 2**30
_OWN_BASETEMP = pytest.StashKey[str]()
_OWN_TEST_DB = pytest.StashKey[str]()
#: ``gc.set_threshold`` of the test processes (Python's own: 700, 10, 10).
GC_THRESHOLD = (50_000, 50, 100)


@pytest.hookimpl(tryfirst=True)  # before pytest's tmp_path factory reads --basetemp
def pytest_configure(config):
    gc.set_threshold(*GC_THRESHOLD)
    if _distributed(config) and config.option.basetemp is None:
        # xdist puts each worker's tmp_path under <basetemp>/popen-gwN/; from /tmp/pytest-XXXXXXXX/ (or
        # /dev/shm/pt-XXXXXXXX/) that is as long as a one-process run's /tmp/pytest-of-<user>/pytest-<n>/
        # (messages that echo a path in full up to ~80 characters, such as the CLI's file errors, read
        # the same either way)
        config.option.basetemp = _ram_basetemp() or tempfile.mkdtemp(prefix="pytest-")
        config.stash[_OWN_BASETEMP] = config.option.basetemp
    # Set before any kernel starts so nbval's kernels inherit it; never touch the user's cache.
    if "RULESLAWYER_TEST_DB" not in os.environ:
        folder = tempfile.mkdtemp(prefix="ruleslawyer-test-")
        config.stash[_OWN_TEST_DB] = folder  # removed when this process's run ends (pytest_unconfigure)
        os.environ["RULESLAWYER_TEST_DB"] = os.path.join(folder, "rules.db")
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # "gw0", "gw1", ... in an xdist worker process
    if worker and not os.environ.get("RULESLAWYER_TEST_WORKER"):
        # the controller's path, made this worker's own (the worker's kernels and commands inherit it)
        shared = Path(os.environ["RULESLAWYER_TEST_DB"])
        os.environ["RULESLAWYER_TEST_DB"] = str(shared.with_name(f"{shared.stem}-{worker}{shared.suffix}"))
        os.environ["RULESLAWYER_TEST_WORKER"] = worker
    os.environ["RULESLAWYER_DB"] = os.environ["RULESLAWYER_TEST_DB"]
    os.environ.pop("RULESLAWYER_HOUSE_RULES", None)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()  # the collected tests and the modules they imported: never garbage, never scanned again


def pytest_sessionfinish(session, exitstatus):
    own = session.config.stash.get(_OWN_BASETEMP, None)
    if own and exitstatus == 0:  # kept after a failure, as pytest keeps its own
        shutil.rmtree(own, ignore_errors=True)


def pytest_unconfigure(config):
    # the test databases' folder (each worker's database and its journal files): a cache of the run, not
    # something to look at after it, so it goes whatever the outcome (the process that made it removes it)
    folder = config.stash.get(_OWN_TEST_DB, None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("RULESLAWYER_TEST_DB", None)


def _ram_basetemp() -> str | None:
    """A new ``pt-XXXXXXXX`` folder in :data:`RAM_TMP` (None where there is none to write in, or it has
    less than :data:`RAM_TMP_NEEDS` free), after
    removing this user's earlier ones there older than :data:`RAM_TMP_KEEP_S`."""
    if not (RAM_TMP.is_dir() and os.access(RAM_TMP, os.W_OK | os.X_OK)):
        return None
    if shutil.disk_usage(RAM_TMP).free < RAM_TMP_NEEDS:  # a container's small /dev/shm (64 MiB) would fill
        return None
    for old in RAM_TMP.glob("pt-????????"):
        try:
            st = old.lstat()
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and time.time() - st.st_mtime > RAM_TMP_KEEP_S:
            shutil.rmtree(old, ignore_errors=True)
    return tempfile.mkdtemp(prefix="pt-", dir=RAM_TMP)


def _distributed(config) -> bool:
    """Whether this is the controller of an xdist run (``-n`` given and not 0)."""
    return (not hasattr(config, "workerinput") and bool(config.getoption("numprocesses", None))
            and config.getoption("dist", "no") != "no")


def scope_of(nodeid: str) -> str:
    """The unit of work a test goes out in: its file (``tests/test_x.py``, ``notebooks/app.ipynb``), or
    the shared-session folder holding that file."""
    path = nodeid.split("::", 1)[0]
    return next((folder for folder in SHARED_SESSION_FOLDERS if path.startswith(folder)), path)


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # pytest-xdist not installed: the suite runs in one process
    LoadScopeScheduling = None

if LoadScopeScheduling is not None:
    class FileScheduling(LoadScopeScheduling):
        """``--dist loadfile``, with each shared-session folder's files as one unit (:func:`scope_of`)."""

        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    @pytest.hookimpl(optionalhook=True)  # `pytest -p no:xdist` runs without the hook
    def pytest_xdist_make_scheduler(config, log):
        if config.getvalue("dist") == "loadfile":
            return FileScheduling(config, log)
        return None
