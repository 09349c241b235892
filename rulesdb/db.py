"""Opening the rules database: build it when missing or stale, then open it read-only."""

from __future__ import annotations

import os
import sqlite3
import _thread
import warnings
from pathlib import Path

from .paths import SourcesError, default_db_path, house_rules_dir, sources_digest

__all__ = ["RulesDatabaseWarning", "connect", "ensure_database", "reset_cache"]

_lock = _thread.allocate_lock()
_fresh: dict[tuple[str, str], Path] = {}
_connections: dict[tuple[str, str, int], sqlite3.Connection] = {}


class RulesDatabaseWarning(UserWarning):
    """The sources could not be rebuilt, so an older database is being used."""


def _stored_meta(path: Path) -> dict[str, str]:
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return dict(conn.execute("SELECT key, value FROM meta").fetchall())
        finally:
            conn.close()
    except sqlite3.Error:
        return {}


def ensure_database(path: str | os.PathLike[str] | None = None,
                    house_rules: str | os.PathLike[str] | None = None) -> Path:
    """Return the path of an up-to-date database, building it first if missing or stale.

    Stale means the sources (package Markdown plus house rules) changed since it was built. The
    house-rules folder is the explicit argument, else ``$RULESLAWYER_HOUSE_RULES``, else the folder
    the existing database was built with (so a database built with house rules keeps them). If a
    rebuild fails and an older database exists, the older one is used and a
    :class:`RulesDatabaseWarning` names the problems; with no older database the
    :class:`~ruleslawyer.rulesdb.build.BuildError` is raised.
    """
    target = Path(path).expanduser() if path is not None else default_db_path()
    house = house_rules_dir(house_rules)
    key = (str(target), str(house))
    with _lock:
        if key in _fresh and target.exists():
            return target
        meta = _stored_meta(target) if target.exists() else {}
        if house is None and meta.get("house_rules"):
            house = Path(meta["house_rules"])
        try:
            stale = not meta or meta.get("sources_digest") != sources_digest(house)
        except SourcesError:
            stale = True
        if stale:
            from .build import build  # the Markdown parser is only loaded when a build is needed

            try:
                build(target, house)
            except SourcesError as exc:
                if not target.exists():
                    raise
                warnings.warn(f"using the previous rules database; {exc}", RulesDatabaseWarning,
                              stacklevel=2)
        _fresh[key] = target
        return target


def connect(path: str | os.PathLike[str] | None = None,
            house_rules: str | os.PathLike[str] | None = None) -> sqlite3.Connection:
    """A read-only connection to the (ensured) rules database, cached per path and thread."""
    target = ensure_database(path, house_rules)
    key = (str(target), str(house_rules_dir(house_rules)), _thread.get_ident())
    conn = _connections.get(key)
    if conn is None:
        conn = sqlite3.connect(f"{target.resolve().as_uri()}?mode=ro", uri=True,
                               check_same_thread=False)
        conn.row_factory = sqlite3.Row
        _connections[key] = conn
    return conn


def reset_cache() -> None:
    """Forget cached connections and freshness checks (after a rebuild or in tests)."""
    with _lock:
        for conn in _connections.values():
            conn.close()
        _connections.clear()
        _fresh.clear()
