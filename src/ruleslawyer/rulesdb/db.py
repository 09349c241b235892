"""Opening the rules database: build it when missing or stale, then open it read-only."""

from __future__ import annotations

import os
import sqlite3
import _thread
import warnings
from pathlib import Path

from .paths import (SourceDirs, SourcesError, database_state, default_db_path, house_rules_dir,
                    registered_source_dirs, sources_digest, stored_source_dirs)

__all__ = ["RulesDatabaseWarning", "connect", "ensure_database", "open_read_only", "reset_cache"]

_lock = _thread.allocate_lock()


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


def _source_dirs(meta: dict[str, str]) -> SourceDirs:
    """The rulesets whose sources decide freshness.

    Once this process has loaded the ruleset registry (every command but the database ones does),
    the installed rulesets, so a newly installed ruleset is built in. Before that, the rulesets the
    database was built from: a cold ``ruleslawyer search`` must not pay the registry scan.
    """
    from ruleslawyer import registry

    stored = stored_source_dirs(meta)
    if registry.discovered() or stored is None:
        return registered_source_dirs()
    return stored


def ensure_database(path: str | os.PathLike[str] | None = None,
                    house_rules: str | os.PathLike[str] | None = None) -> Path:
    """Return the path of an up-to-date database, building it first if missing or stale.

    Stale means the sources (package Markdown plus house rules) changed since it was built. The
    house-rules folder is the explicit argument, else ``$RULESLAWYER_HOUSE_RULES``, else the folder
    the existing database was built with (so a database built with house rules keeps them). If a
    rebuild fails and an older database exists, the older one is used and a
    :class:`RulesDatabaseWarning` names the problems; with no older database the
    :class:`~ruleslawyer.errors.BuildError` is raised.

    Raises:
        DatabasePathError: the path names anything but a regular file or nothing (a folder, a device,
            a FIFO, a socket, a link to one), or a file that is not a rules database. It is refused at
            once, before anything there is opened, and left as it was.
    """
    target = Path(path).expanduser() if path is not None else default_db_path()
    house = house_rules_dir(house_rules)
    with _lock:
        meta = _stored_meta(target) if database_state(target) == "rules" else {}
        if house is None and meta.get("house_rules"):
            house = Path(meta["house_rules"])
        try:
            stale = not meta or meta.get("sources_digest") != sources_digest(house, _source_dirs(meta))
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
        return target


def open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to the database file ``path`` (rows as :class:`sqlite3.Row`)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    return conn


def connect(db=None, house_rules: str | os.PathLike[str] | None = None) -> sqlite3.Connection:
    """A read-only connection to the rules database ``db``: a :class:`~ruleslawyer.rulesdb.handle.Rules`
    handle, a path, or None for the default database. The handle owns (and caches) the connection."""
    from .handle import Rules, open_rules

    handle = db if isinstance(db, Rules) else open_rules(db, house_rules)
    return handle.connection()


def reset_cache() -> None:
    """Forget every handle's connections and caches (after a rebuild from outside, or in tests)."""
    from .handle import reset_all

    reset_all()
