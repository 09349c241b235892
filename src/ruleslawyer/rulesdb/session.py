"""The session's default ruleset, kept on the rules handle.

:func:`set_session_ruleset` makes one ruleset the default of a rules handle for the rest of the
process (a notebook's kernel): :func:`ruleslawyer.rulesdb.search` and
:func:`ruleslawyer.rulesdb.toc` called without a ruleset then use it, and the search panel sets it
when the GM picks a ruleset there. It is the notebook's counterpart of the CLI's ``--ruleset``
default ``$RULESLAWYER_RULESET``, kept per handle (never in ``os.environ``);
``set_session_ruleset(None)`` goes back to every ruleset. ``ruleset=None`` given explicitly always
means every ruleset.
"""

from __future__ import annotations

import weakref

from ruleslawyer.errors import RulesInputError

from .handle import resolve_rules

__all__ = ["SESSION", "set_session_ruleset", "session_ruleset", "in_session"]


class _SessionDefault:
    """The type of :data:`SESSION`."""

    def __repr__(self) -> str:
        return "SESSION"


#: The default of a ``ruleset`` argument that means "the session's ruleset" (:func:`session_ruleset`;
#: every ruleset while none is set). ``None`` given explicitly always means every ruleset.
SESSION = _SessionDefault()

_session: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def set_session_ruleset(ruleset: str | None, *, db=None, rules=None) -> str | None:
    """Make ``ruleset`` the session's default ruleset on the rules handle.

    Args:
        ruleset: a ruleset id of the database (``mastery``, ``mythras``, ``darkmaster`` or a house one);
            None or ``""`` clears the default (every ruleset again).
        db / rules: the database or rules handle it is the default for (None: the default database).

    Returns:
        The session's ruleset now (None: every ruleset).

    Raises:
        RulesInputError: unknown ruleset (field ``ruleset``; the message lists them).
    """
    handle = resolve_rules(rules if rules is not None else db)
    if not ruleset:
        _session.pop(handle, None)
        return None
    known = [r[0] for r in handle.connection().execute("SELECT DISTINCT ruleset FROM sections ORDER BY ruleset")]
    if ruleset not in known:
        raise RulesInputError("ruleset", f"unknown ruleset {ruleset!r}; choose one of: {', '.join(known)}")
    _session[handle] = ruleset
    return ruleset


def session_ruleset(*, db=None, rules=None) -> str | None:
    """The session's default ruleset on the rules handle (None: none set, every ruleset)."""
    if not _session:
        return None
    return _session.get(resolve_rules(rules if rules is not None else db))


def in_session(ruleset, *, db=None, rules=None) -> str | None:
    """The ruleset a call means: the session's (:func:`session_ruleset`) for :data:`SESSION`, else
    ``ruleset`` as given (None: every ruleset). For functions whose ``ruleset`` defaults to ``SESSION``."""
    return session_ruleset(db=db, rules=rules) if ruleset is SESSION else ruleset
