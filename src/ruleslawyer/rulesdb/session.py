"""The session's default ruleset, kept on the rules handle.

:func:`set_session_ruleset` makes one ruleset the default of a rules handle for the rest of the
process (a notebook's kernel): :func:`ruleslawyer.rulesdb.search` and
:func:`ruleslawyer.rulesdb.toc` called without a ruleset then use it, and the search panel sets it
when the GM picks a ruleset there. It is the notebook's counterpart of the CLI's ``--ruleset``
default ``$RULESLAWYER_RULESET``, kept per handle (never in ``os.environ``);
``set_session_ruleset(None)`` goes back to every ruleset. ``ruleset=None`` given explicitly always
means every ruleset.

Ruleset ids are matched in one place, :func:`match_ruleset`: case- and whitespace-insensitively
(``" MASTERY "`` is ``mastery``); anything else that is not a ruleset of the database is a
:class:`~ruleslawyer.errors.RulesInputError` listing them. A session default that is no longer in the
database (a house ruleset whose file was removed) is an error that says it is the session's default
and how to clear it.
"""

from __future__ import annotations

import weakref

from ruleslawyer.errors import RulesInputError
from ruleslawyer.limits import clip

from .handle import resolve_rules

__all__ = ["SESSION", "set_session_ruleset", "session_ruleset", "in_session", "known_rulesets", "match_ruleset"]


class _SessionDefault:
    """The type of :data:`SESSION`."""

    def __repr__(self) -> str:
        return "SESSION"


#: The default of a ``ruleset`` argument that means "the session's ruleset" (:func:`session_ruleset`;
#: every ruleset while none is set). ``None`` given explicitly always means every ruleset.
SESSION = _SessionDefault()

_session: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def known_rulesets(*, db=None, rules=None) -> tuple[str, ...]:
    """The ruleset ids of the database (house ones included), sorted; cached on the rules handle
    until its next rebuild."""
    handle = resolve_rules(rules if rules is not None else db)
    return handle.cached("session.rulesets", lambda: tuple(
        r[0] for r in handle.connection().execute("SELECT DISTINCT ruleset FROM sections ORDER BY ruleset")))


def match_ruleset(value, known, *, field: str = "ruleset", extra: str = "") -> str | None:
    """``value`` as one of the ruleset ids ``known``: matched case- and whitespace-insensitively
    (``" Mastery "`` -> ``mastery``); None or a blank string -> None (every ruleset).

    Args:
        value: what the caller gave.
        known: the allowed ids.
        field: the field named by the error (``ruleset``, ``--ruleset``, ``RULESLAWYER_RULESET``).
        extra: appended to the list of allowed ids in the message (e.g. ``", or all"``).

    Raises:
        RulesInputError: ``value`` is not a string (or None), or names no ruleset of ``known``.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise RulesInputError(field, f"must be a ruleset id (a string) or None, got {type(value).__name__} "
                                     f"{value!r}; choose one of: {', '.join(known)}{extra}")
    want = value.strip().casefold()
    if not want:
        return None
    found = next((k for k in known if k.casefold() == want), None)
    if found is None:
        raise RulesInputError(field, f"unknown ruleset {clip(value)}; choose one of: {', '.join(known)}{extra}")
    return found


def set_session_ruleset(ruleset: str | None, *, db=None, rules=None) -> str | None:
    """Make ``ruleset`` the session's default ruleset on the rules handle.

    Args:
        ruleset: a ruleset id of the database (``mastery``, ``mythras``, ``darkmaster`` or a house one,
            matched by :func:`match_ruleset`); None or ``""`` clears the default (every ruleset again).
        db / rules: the database or rules handle it is the default for (None: the default database).

    Returns:
        The session's ruleset now (None: every ruleset).

    Raises:
        RulesInputError: not a string or None, or an unknown ruleset (field ``ruleset``; the message
            lists them).
    """
    handle = resolve_rules(rules if rules is not None else db)
    if ruleset is None or (isinstance(ruleset, str) and not ruleset.strip()):
        _session.pop(handle, None)
        return None
    chosen = match_ruleset(ruleset, known_rulesets(rules=handle))
    _session[handle] = chosen
    return chosen


def session_ruleset(*, db=None, rules=None) -> str | None:
    """The session's default ruleset on the rules handle (None: none set, every ruleset)."""
    if not _session:
        return None
    return _session.get(resolve_rules(rules if rules is not None else db))


def in_session(ruleset, *, db=None, rules=None) -> str | None:
    """The ruleset a call means, checked: the session's (:func:`session_ruleset`) for :data:`SESSION`,
    else ``ruleset`` as given matched by :func:`match_ruleset` (None: every ruleset). For functions
    whose ``ruleset`` defaults to ``SESSION``.

    Raises:
        RulesInputError: (field ``ruleset``) ``ruleset`` is not a ruleset of the database; or the
            session's default is no longer one (the message says so and how to clear it).
    """
    if ruleset is None:
        return None
    handle = resolve_rules(rules if rules is not None else db)
    known = known_rulesets(rules=handle)
    if ruleset is not SESSION:
        return match_ruleset(ruleset, known)
    chosen = session_ruleset(rules=handle)
    if chosen is not None and chosen not in known:
        raise RulesInputError("ruleset", f"the session's default ruleset {chosen!r} (set by set_session_ruleset or "
                                         f"the search panel) is not in the database any more; clear it with "
                                         f"set_session_ruleset(None), or pass ruleset= one of: {', '.join(known)}")
    return chosen
