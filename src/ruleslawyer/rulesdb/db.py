"""Opening the rules database: build it when missing, stale or damaged, then open it read-only.

A database the kit builds is sealed: its SQLite header carries the kit's application id and a
CRC-32 of the whole file (in ``user_version``). Opening it checks the seal (about a millisecond a
megabyte), so a file damaged on disk is rebuilt, never read into a wrong answer. When it cannot be
rebuilt (broken sources, a read-only folder, a full disk), a sound earlier database is used with a
:class:`RulesDatabaseWarning`; a damaged or missing one is a :class:`~ruleslawyer.errors.DatabaseError`
naming the file. Queries run on a :class:`RulesConnection`, whose SQLite errors are DatabaseErrors
naming the file too.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import _thread
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ruleslawyer.errors import DatabaseError, DatabasePathError

from .paths import (SourceDirs, SourcesError, database_damage, database_state, default_db_path, house_rules_dir,
                    registered_source_dirs, remember_sealed, seal_database, sources_digest, sources_stats,
                    stored_source_dirs)

__all__ = ["RulesDatabaseWarning", "RulesDatabaseNotice", "RulesConnection", "ensure_database",
           "open_read_only"]

_lock = _thread.allocate_lock()
FIRST_USE = "first use"


class RulesDatabaseWarning(UserWarning):
    """The database could not be rebuilt (or is being rebuilt): the CLI prints it as
    ``ruleslawyer: warning: ...``. An older database answers meanwhile."""


class RulesDatabaseNotice(RulesDatabaseWarning):
    """A query is rebuilding the database (changed sources, a damaged file; a first build only when
    the sources are large); the CLI prints ``ruleslawyer: rebuilding the rules database PATH
    (why)...`` so a wait has a reason."""


def _stored_meta(path: Path) -> dict[str, str]:
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return dict(conn.execute("SELECT key, value FROM meta").fetchall())
        finally:
            conn.close()
    except sqlite3.Error:
        return {}


def _source_dirs(meta: dict[str, str]) -> SourceDirs:
    """The rulesets whose sources decide freshness.

    Once this process has loaded the ruleset registry (every command but the database ones does),
    the installed rulesets, so a newly installed ruleset is built in. Before that, the rulesets the
    database was built from: a cold ``ruleslawyer search`` must not pay the registry scan.
    """
    registry = sys.modules.get("ruleslawyer.registry")  # not imported: not discovered either
    stored = stored_source_dirs(meta)
    if (registry is not None and registry.discovered()) or stored is None:
        return registered_source_dirs()
    return stored


def _staleness(state: str, meta: dict[str, str], house: Path | None) -> str | None:
    """Why the database must be built (None: it is up to date)."""
    return _freshness(state, meta, house)[0]


def _freshness(state: str, meta: dict[str, str], house: Path | None) -> tuple[str | None, str]:
    """``(why the database must be built or None, stats key to store)``.

    The sources' stats (:func:`~.paths.sources_stats`, no file read) are compared first; only when
    they differ from the stored ones is every source read for the digest. The key is returned
    (non-empty) when the digest matched but the stored stats did not (a file touched, the kit
    reinstalled unchanged): the caller stores it so the next open is cheap again.
    """
    if state != "rules":
        return (FIRST_USE if state == "missing" else "the file is empty"), ""
    if not meta:
        return "its tables cannot be read", ""
    try:
        dirs = _source_dirs(meta)
        stats = sources_stats(house, dirs)
        if stats and stats == meta.get("sources_stats") and meta.get("sources_digest"):
            return None, ""
        fresh = meta.get("sources_digest") == sources_digest(house, dirs)
    except SourcesError:
        return "the sources changed", ""  # a source cannot be read: the build names it
    return (None, stats) if fresh else ("the sources changed", "")


def ensure_database(path: str | os.PathLike[str] | None = None,
                    house_rules: str | os.PathLike[str] | None = None) -> Path:
    """Return the path of an up-to-date, undamaged database, building it first if needed.

    It is built when missing, stale (the sources -- package Markdown plus house rules -- changed) or
    damaged (its checksum does not match); the build says so with a :class:`RulesDatabaseNotice`
    (a first build only when the sources are large: the books alone take under a second).
    The house-rules folder is the explicit argument, else ``$RULESLAWYER_HOUSE_RULES``, else the
    folder the existing database was built with (so a database built with house rules keeps them).

    Raises:
        BuildError: the sources do not build and there is no earlier database (with an earlier,
            sound one, it is used and a :class:`RulesDatabaseWarning` names the problems).
        DatabaseError: the database cannot be written (read-only folder, full disk) and there is no
            sound earlier one, or it is damaged and cannot be rebuilt; the message names the file.
        DatabasePathError: the path names anything but a regular file or nothing (a folder, a device,
            a FIFO, a socket, a link to one), or a file that is not a rules database. It is refused at
            once, before anything there is opened, and left as it was.
    """
    target = Path(path).expanduser() if path is not None else default_db_path()
    house = house_rules_dir(house_rules)
    with _lock:
        found = _diagnose(target, house)
        if found.why:
            with _build_lock(target):  # one process builds; the others wait, then find it built
                found = _diagnose(target, house)
                if found.why:
                    _rebuild(target, found)
        elif found.stats:
            _store_stats(target, found)
        return target


class _Diagnosis:
    """What the check found: ``why`` it must be built (None: up to date and sound), the house-rules
    folder to build with, whether a sound earlier database is there to fall back on (``keep``), why
    the file is damaged (or None), the sources stats key to store (up to date, but the stored stats
    are not; ``""``: nothing to store) and the file's ``(inode, size, mtime_ns)`` when checked."""

    __slots__ = ("why", "house", "keep", "damage", "stats", "seen")

    def __init__(self, why: str | None, house: Path | None, keep: bool, damage: str | None,
                 stats: str = "", seen: tuple = ()) -> None:
        self.why, self.house, self.keep, self.damage, self.stats, self.seen = why, house, keep, damage, stats, seen


def _diagnose(target: Path, house: Path | None) -> _Diagnosis:
    state = database_state(target)
    meta = _stored_meta(target) if state == "rules" else {}
    if house is None and meta.get("house_rules"):
        house = Path(meta["house_rules"])
    seen = _file_id(target) if state == "rules" else ()
    damage = database_damage(target) if state == "rules" else None
    why, stats = (f"it is damaged: {damage}", "") if damage else _freshness(state, meta, house)
    return _Diagnosis(why, house, state == "rules" and not damage, damage, stats, seen)


def _file_id(path: Path) -> tuple:
    try:
        st = os.stat(path)
    except OSError:
        return ()
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _store_stats(target: Path, found: _Diagnosis) -> None:
    """Store ``found.stats`` in the (up-to-date) database, so the next open trusts the stats again.

    Best effort, and never in place: a copy of the file gets the new key, is sealed and renamed over
    the database (readers keep the file they opened), under the build lock, and only if the database
    is still the file that was checked. A read-only folder, a full disk, another process's rebuild
    meanwhile: nothing is stored, and the next open computes the digest again.
    """
    import shutil

    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        with _build_lock(target):
            if not found.seen or _file_id(target) != found.seen:
                return
            shutil.copyfile(target, tmp)
            conn = sqlite3.connect(tmp)
            try:
                with conn:
                    conn.execute("INSERT OR REPLACE INTO meta VALUES ('sources_stats', ?)", (found.stats,))
            finally:
                conn.close()
            seal_database(tmp)
            if _file_id(target) == found.seen:
                os.replace(tmp, target)
                remember_sealed(target)
    except (OSError, sqlite3.Error):
        pass
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
            try:
                leftover.unlink(missing_ok=True)
            except OSError:
                pass


@contextmanager
def _build_lock(target: Path) -> Iterator[None]:
    """Hold an exclusive lock on the database's folder while building it, so processes that all find
    it missing or stale build it once: the others wait, then find it built. No file is left behind.
    Where no lock can be taken (no ``fcntl``, an odd file system), build without one: the rename
    that ends a build is atomic anyway."""
    try:
        import fcntl

        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except (ImportError, OSError):
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)  # releases the lock


def _rebuild(target: Path, found: _Diagnosis) -> None:
    """Build ``target``; if that fails, keep a sound earlier database with a warning, else raise."""
    from .builder import build  # the Markdown parser is only loaded when a build is needed

    def notice(slow: bool) -> None:
        if slow or found.why != FIRST_USE:  # the books alone build in under a second: no notice
            warnings.warn(f"rebuilding the rules database {target} ({found.why})...", RulesDatabaseNotice,
                          stacklevel=6)

    try:
        build(target, found.house, notify=notice)
    except DatabasePathError:
        raise
    except (SourcesError, DatabaseError) as exc:
        if found.keep:
            warnings.warn(f"using the previous rules database; {exc}", RulesDatabaseWarning, stacklevel=5)
        elif found.damage:
            raise DatabaseError(f"the rules database {target} is damaged ({found.damage}) and cannot be "
                                f"rebuilt: {exc}") from None
        else:
            raise


def _reason(exc: sqlite3.Error) -> str:
    return " ".join(str(exc).split()) or exc.__class__.__name__


def _valid_text(value):
    """``value`` with anything that is not valid Unicode (a lone surrogate, from undecodable bytes on
    the command line) as U+FFFD: SQLite takes UTF-8 only, and no stored rule holds either."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return value


class _Cursor(sqlite3.Cursor):
    """A cursor whose SQLite errors (a damaged page met mid-query) are DatabaseErrors naming the file,
    and whose text parameters need not be valid Unicode."""

    def execute(self, sql, parameters=()):
        try:
            return super().execute(sql, parameters)
        except UnicodeEncodeError:
            if isinstance(parameters, dict):
                parameters = {k: _valid_text(v) for k, v in parameters.items()}
            else:
                parameters = tuple(_valid_text(v) for v in parameters)
            return self.execute(sql, parameters)
        except sqlite3.Error as exc:
            raise self.connection.failed(exc) from None

    def executemany(self, *args):
        try:
            return super().executemany(*args)
        except sqlite3.Error as exc:
            raise self.connection.failed(exc) from None

    def fetchone(self):
        try:
            return super().fetchone()
        except sqlite3.Error as exc:
            raise self.connection.failed(exc) from None

    def fetchmany(self, *args):
        try:
            return super().fetchmany(*args)
        except sqlite3.Error as exc:
            raise self.connection.failed(exc) from None

    def fetchall(self):
        try:
            return super().fetchall()
        except sqlite3.Error as exc:
            raise self.connection.failed(exc) from None

    def __next__(self):
        try:
            return super().__next__()
        except sqlite3.Error as exc:
            raise self.connection.failed(exc) from None


class RulesConnection(sqlite3.Connection):
    """A read-only connection to a rules database (rows as :class:`sqlite3.Row`).

    An SQLite error from a query is raised as a :class:`~ruleslawyer.errors.DatabaseError` naming the
    file (never an internal error), and ``on_error`` (the handle's) is called so the next query checks
    the file again and rebuilds it if it is damaged. Misuse (``ProgrammingError``, ``InterfaceError``,
    a write on this read-only connection) is a bug and stays as it is.

    Attributes:
        path: the database file.
        on_error: called with no arguments after a query failed, or None.
    """

    path: Path
    on_error: Callable[[], None] | None = None

    def cursor(self, factory=_Cursor):  # noqa: D102 - as sqlite3.Connection.cursor
        return super().cursor(factory)

    def execute(self, *args):  # noqa: D102 - as sqlite3.Connection.execute
        return self.cursor().execute(*args)

    def executemany(self, *args):  # noqa: D102 - as sqlite3.Connection.executemany
        return self.cursor().executemany(*args)

    def failed(self, exc: sqlite3.Error) -> Exception:
        """The error to raise for ``exc`` from a query on this connection."""
        if isinstance(exc, (sqlite3.ProgrammingError, sqlite3.InterfaceError)) \
                or (getattr(exc, "sqlite_errorname", "") or "").startswith("SQLITE_READONLY"):
            return exc  # misuse (a write on this read-only connection): a bug, not the file
        if self.on_error is not None:
            self.on_error()
        return DatabaseError(f"the rules database {self.path} cannot be read ({_reason(exc)}); the next "
                             "command checks it and rebuilds it if it is damaged")


def open_read_only(path: Path) -> RulesConnection:
    """A read-only :class:`RulesConnection` to the database file ``path``.

    Raises:
        DatabaseError: the file cannot be opened (it vanished, or cannot be read); names the file.
    """
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False,
                               factory=RulesConnection)
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot open the rules database {path}: {_reason(exc)}") from None
    conn.path = path
    conn.row_factory = sqlite3.Row
    return conn
