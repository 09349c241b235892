"""The rules database: build it from the Markdown sources, search it, look rules and tables up.

Queries build the database on first use (and again when the sources change) and open it read-only.
Importing this package does not import pandas; :func:`table` and ``SearchResults.to_dataframe()`` do.
"""

from .build import BuildError, BuildReport, build, default_db_path
from .db import RulesDatabaseWarning, connect, ensure_database, reset_cache
from .lookup import (Rule, RuleContext, TableInfo, UnknownIdError, all_ids, context, get_rule,
                     list_tables, load_table, rulesets, table)
from .search import Hit, SearchResults, complete, search, suggest

__all__ = [
    "BuildError", "BuildReport", "Hit", "Rule", "RuleContext", "RulesDatabaseWarning", "SearchResults",
    "TableInfo", "UnknownIdError", "all_ids", "build", "complete", "connect", "context",
    "default_db_path", "ensure_database", "get_rule", "list_tables", "load_table", "reset_cache",
    "rulesets", "search", "suggest", "table", "roll",
]


def roll(table_id: str, *, roll: int | None = None, seed: int | None = None, rng=None,
         script=None, db=None):
    """Roll on a rollable table of the database (or look up an entered ``roll``).

    Returns a :class:`ruleslawyer.tables.TableRoll` whose row carries its citation id.

    Raises:
        UnknownIdError: no such table. RulesInputError: not rollable, or ``roll`` out of range.
    """
    from ruleslawyer.dice import Dice
    from ruleslawyer.tables import roll_table

    dice = None if roll is not None else Dice(rng=rng, seed=seed, script=script)
    return roll_table(load_table(table_id, db=db), roll=roll, dice=dice)
