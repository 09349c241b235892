"""The rules handle: one object that owns a rules database and everything cached from it.

``open_rules(db=None, house_rules=None) -> Rules`` gives the handle for a database path (and
house-rules folder). It owns the read-only connections, the freshness check and rebuild, the
search index (built per connection), the table cache and rule look-up. Engines, odds, renderers
and panels take ``rules=`` the way they take ``rng=``; ``rules=None`` means the default database
(``$RULESLAWYER_DB``, else ``~/.cache/ruleslawyer/rules.db``).

Two handles on two databases give each its own answers; a rebuild through a handle clears its
caches, so the next engine call sees the new tables.
"""

from __future__ import annotations

import _thread
import os
from collections.abc import Callable
from pathlib import Path

from ruleslawyer.errors import DatabasePathError

from .paths import default_db_path, house_rules_dir

#: Opens of the database file a reconnect tries, each after checking (or rebuilding) it: other
#: processes may delete or replace the file several times while one process reconnects.
OPEN_ATTEMPTS = 5

# ``typing`` and the records module (json, dataclasses) stay out of a cold ``ruleslawyer search``:
# the handle loads the records module on the first table or rule read.
TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import sqlite3
    from typing import TypeVar

    from ruleslawyer.tables import RuleTable

    from .builder import BuildReport
    from .records import Rule

    T = TypeVar("T")

__all__ = ["Rules", "open_rules", "resolve_rules", "RulesLike", "connect", "reset_all", "reset_cache"]

_handles: dict[tuple[str, str], "Rules"] = {}
_handles_lock = _thread.allocate_lock()


class Rules:
    """A rules database and its caches. Build one with :func:`open_rules`.

    Attributes:
        path: the SQLite file (built on first use, and again when the sources change).
        house_rules: the house-rules folder given when opened (None: the environment's, else the
            folder the database was built with).
    """

    def __init__(self, path: Path, house_rules: Path | None) -> None:
        self.path = path
        self.house_rules = house_rules
        self._lock = _thread.allocate_lock()
        self._checked = False
        self._connections: dict[int, "sqlite3.Connection"] = {}
        self._cache: dict[str, object] = {}
        #: bumped by every rebuild or reset; caches keyed on it (search's compiled queries) go stale
        self.generation = 0

    def __repr__(self) -> str:
        return f"Rules({str(self.path)!r})"

    # -- the database ------------------------------------------------------------------------
    def ensure(self) -> Path:
        """The database path, after building it if it is missing, stale or damaged (checked once per
        handle, and again after it vanished or a query on it failed).

        Raises:
            BuildError: the sources do not build and there is no earlier database.
            DatabaseError: it cannot be built or rebuilt (read-only folder, full disk, damaged with
                broken sources); names the file.
            DatabasePathError: the path names something that is not a rules database.
        """
        if self._checked and self.path.exists():
            return self.path
        from .db import ensure_database

        with self._lock:
            ensure_database(self.path, self.house_rules)
            self._checked = True
        return self.path

    def connection(self) -> "sqlite3.Connection":
        """A read-only connection to the (ensured) database, one per thread.

        The file is opened by path each time the handle reconnects; if it vanished between the check
        and the open (another process deleting or replacing it), it is checked (rebuilt) and opened
        again, up to ``OPEN_ATTEMPTS`` times in all.

        Raises:
            DatabaseError: it cannot be opened even then (names the file); and as :meth:`ensure`.
        """
        key = _thread.get_ident()
        conn = self._connections.get(key)
        if conn is None or not self._checked:
            conn = self._connections[key] = self._open()
        return conn

    def _open(self) -> "sqlite3.Connection":
        from ruleslawyer.errors import DatabaseError

        from .db import open_read_only

        for attempt in range(1, OPEN_ATTEMPTS + 1):
            path = self.ensure()
            try:
                conn = open_read_only(path)
            except DatabaseError:
                if attempt == OPEN_ATTEMPTS:
                    raise
                # it vanished between the check and the open: build it again (or, if another process
                # has put a file back meanwhile, check that one), then open it again
                self._checked = False
                continue
            conn.on_error = self._query_failed
            return conn
        raise AssertionError("unreachable")  # pragma: no cover

    def _query_failed(self) -> None:
        """A query on this database failed: check the file again before the next one."""
        self._checked = False

    def rebuild(self) -> "BuildReport":
        """Build the database again now (house rules included) and forget every cached answer.

        Raises:
            BuildError: the sources are invalid; the previous database is left as it was.
        """
        from .builder import build

        with self._lock:
            self._forget()
            return build(self.path, self.house_rules)

    def reset(self) -> None:
        """Close the connections and forget every cached table and index (after an outside rebuild)."""
        with self._lock:
            self._forget()

    def _forget(self) -> None:
        for conn in self._connections.values():
            conn.close()
        self._connections.clear()
        self._cache.clear()
        self._checked = False
        self.generation += 1

    # -- cached data -------------------------------------------------------------------------
    def table(self, table_id: str) -> "RuleTable":
        """The table ``table_id`` (e.g. ``mastery/combat/tables/trauma``), loaded once per handle.

        Raises:
            UnknownIdError: no table has that id.
        """
        key = "table:" + table_id
        found = self._cache.get(key)
        if found is None:
            from .records import read_table

            found = self._cache[key] = read_table(self.connection(), table_id)
        return found  # type: ignore[return-value]

    def cached(self, name: str, build: Callable[[], T]) -> T:
        """``build()``, computed once per handle under ``name`` (data an engine parses from a table)."""
        key = "derived:" + name
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]  # type: ignore[return-value]

    def rule(self, rule_id: str) -> "Rule":
        """The unit with this citation id (:class:`~ruleslawyer.rulesdb.records.Rule`).

        Raises:
            UnknownIdError: no unit has that id (the message suggests close ids).
        """
        from .records import read_rule

        return read_rule(self.connection(), rule_id)


RulesLike = Rules | str | os.PathLike | None


def open_rules(db: str | os.PathLike[str] | None = None,
               house_rules: str | os.PathLike[str] | None = None) -> Rules:
    """The rules handle for database ``db`` (default: ``$RULESLAWYER_DB``, else the user cache).

    One handle per (path, house-rules folder) in a process: opening the same database twice gives
    the same handle and its caches. Nothing is built or opened until the first query.

    Args:
        db: SQLite file path; created (built) on first use if missing.
        house_rules: folder of house-rules Markdown; default ``$RULESLAWYER_HOUSE_RULES``, else the
            folder the database was built with.

    Raises:
        DatabasePathError: ``db`` is an empty path.
    """
    if db is not None and not os.fspath(db).strip():
        raise DatabasePathError("db: the path is empty; give a file path for the rules database")
    path = Path(db).expanduser() if db is not None else default_db_path()
    house = house_rules_dir(house_rules)
    key = (os.path.abspath(path), str(house))
    with _handles_lock:
        handle = _handles.get(key)
        if handle is None:
            handle = _handles[key] = Rules(path, house)
        return handle


def resolve_rules(rules: RulesLike = None) -> Rules:
    """``rules`` as a handle: a :class:`Rules` as it is, a path opened with :func:`open_rules`, None
    the default database."""
    if isinstance(rules, Rules):
        return rules
    return open_rules(rules)


def reset_cache() -> None:
    """Forget every handle's connections and caches (after a rebuild from outside, or in tests)."""
    reset_all()


def reset_all() -> None:
    """Forget every handle's connections and caches (tests, or after rebuilding from outside)."""
    with _handles_lock:
        for handle in _handles.values():
            handle.reset()


def connect(db: RulesLike = None, house_rules: str | os.PathLike[str] | None = None) -> "sqlite3.Connection":
    """A read-only connection to the rules database ``db``: a :class:`Rules` handle, a path, or None
    for the default database. The handle owns (and caches) the connection."""
    handle = db if isinstance(db, Rules) else open_rules(db, house_rules)
    return handle.connection()
