"""The rules database: build it from the Markdown sources, search it, look rules and tables up.

Modules: ``builder`` (Markdown -> SQLite), ``handle`` (the rules handle), ``db``, ``records``,
``lookup``, ``session`` (the session's ruleset), ``xrefs``, ``fulltext`` (search), ``glossary``, ``concordance``, ``audit``; no module shares its name
with an exported function, so ``import ruleslawyer.rulesdb.fulltext as m`` is always the module and
``rulesdb.search`` always the function.

Queries build the database on first use (and again when the sources change) and open it read-only.
Names are loaded lazily, so ``from ruleslawyer.rulesdb import search`` imports neither the Markdown
parser nor pandas; :func:`table` and ``SearchResults.to_dataframe()`` import pandas when called.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "BuildError": "builder", "BuildReport": "builder", "build": "builder",
    "default_db_path": "paths", "house_rules_dir": "paths",
    "RulesDatabaseWarning": "db", "connect": "handle", "ensure_database": "db", "reset_cache": "handle",
    "Rule": "lookup", "RuleContext": "lookup", "TableInfo": "lookup", "UnknownIdError": "lookup",
    "all_ids": "lookup", "context": "lookup", "get_rule": "lookup", "list_tables": "lookup",
    "load_table": "lookup", "rulesets": "lookup", "table": "lookup", "toc": "lookup", "TocEntry": "lookup",
    "Hit": "fulltext", "SearchResults": "fulltext", "complete": "fulltext", "search": "fulltext",
    "suggest": "fulltext",
    "define": "glossary", "compare": "concordance",
    "Rules": "handle", "open_rules": "handle", "resolve_rules": "handle",
    "SESSION": "session", "set_session_ruleset": "session", "session_ruleset": "session",
    "example_questions": "lookup", "references": "xrefs", "Reference": "xrefs",
}

__all__ = sorted([*_EXPORTS, "roll"])


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ruleslawyer.rulesdb' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


def roll(table_id: str, *, roll: int | None = None, seed: int | None = None, rng=None,
         script=None, db=None, rules=None):
    """Roll on a rollable table of the database (or look up an entered ``roll``).

    Args:
        table_id: e.g. ``mastery/combat/tables/trauma``.
        roll: a die result already rolled at the table (1..sides); None to roll.
        seed / rng / script: how to roll (see :class:`ruleslawyer.dice.Dice`).

    Returns:
        A :class:`ruleslawyer.tables.TableRoll` whose row carries its citation id.

    Raises:
        UnknownIdError: no such table. RulesInputError: not rollable, or ``roll`` out of range.
    """
    from ruleslawyer.dice import Dice
    from ruleslawyer.tables import roll_table

    from .lookup import load_table

    dice = None if roll is not None else Dice(rng=rng, seed=seed, script=script)
    return roll_table(load_table(table_id, db=db, rules=rules), roll=roll, dice=dice)
