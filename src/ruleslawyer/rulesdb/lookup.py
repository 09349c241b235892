"""Looking rules and tables up by citation id; the table of contents (which follows the session's
default ruleset, :mod:`ruleslawyer.rulesdb.session`); example questions for an empty search box.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ruleslawyer.errors import RulesInputError, UnknownIdError

from .handle import connect, resolve_rules
from .records import RULE_SQL as _RULE_SQL
from .records import Rule, row_to_rule as _rule
from .session import SESSION, in_session, known_rulesets, match_ruleset, session_ruleset, set_session_ruleset

__all__ = ["Rule", "RuleContext", "TableInfo", "UnknownIdError", "get_rule", "context", "list_tables",
           "load_table", "table", "rulesets", "all_ids", "TocEntry", "toc", "SESSION", "set_session_ruleset",
           "session_ruleset", "in_session", "GENERIC_EXAMPLES", "example_questions"]


@dataclass(frozen=True)
class RuleContext:
    """A rule with its neighbours in the same section (or a whole section for a heading id)."""

    rule: Rule
    before: tuple[Rule, ...]
    after: tuple[Rule, ...]
    section_title: str

    def to_dict(self) -> dict:
        return {"rule": self.rule.to_dict(), "before": [r.to_dict() for r in self.before],
                "after": [r.to_dict() for r in self.after], "section_title": self.section_title}


@dataclass(frozen=True)
class TableInfo:
    """A table's id, title, columns, row count and die (None if not rollable)."""

    id: str
    ruleset: str
    title: str
    columns: tuple[str, ...]
    rows: int
    dice: str | None
    section: str

    def to_dict(self) -> dict:
        d = asdict(self)
        d["columns"] = list(self.columns)
        return d


def get_rule(rule_id: str, *, db=None, rules=None) -> Rule:
    """The unit with this citation id (through the rules handle, which caches nothing for it).

    Raises:
        UnknownIdError: no unit has that id (the message suggests close ids).
    """
    return resolve_rules(rules or db).rule(rule_id)


def all_ids(*, db=None, rules=None) -> set[str]:
    """Every citable id: units (headings included) and tables."""
    conn = connect(rules or db)
    ids = {r[0] for r in conn.execute("SELECT id FROM units")}
    return ids | {r[0] for r in conn.execute("SELECT id FROM rule_tables")}


def context(rule_id: str, before: int = 2, after: int = 2, *,
            db=None, rules=None) -> RuleContext:
    """The rule with up to ``before``/``after`` neighbours from its own section.

    For a heading (section) id, ``after`` holds the section's own units (up to 50).

    Raises:
        UnknownIdError: no unit has that id.
    """
    conn = connect(rules or db)
    rule = get_rule(rule_id, db=db, rules=rules)
    ord_ = conn.execute("SELECT ord FROM units WHERE id = ?", (rule.id,)).fetchone()[0]
    title = conn.execute("SELECT title FROM sections WHERE id = ?", (rule.section,)).fetchone()
    if rule.kind == "heading":
        before, after = 0, max(after, 50)
    prev = conn.execute(_RULE_SQL + " WHERE u.section = ? AND u.ord < ? AND u.kind != 'heading' "
                        "ORDER BY u.ord DESC LIMIT ?", (rule.section, ord_, before)).fetchall()
    nxt = conn.execute(_RULE_SQL + " WHERE u.section = ? AND u.ord > ? ORDER BY u.ord LIMIT ?",
                       (rule.section, ord_, after)).fetchall()
    return RuleContext(rule, tuple(_rule(r) for r in reversed(prev)), tuple(_rule(r) for r in nxt),
                       title[0] if title else "")


def rulesets(*, db=None, rules=None) -> list[dict]:
    """The rulesets and chapters in the database, with titles, kinds and provenance."""
    conn = connect(rules or db)
    return [dict(r) for r in conn.execute(
        "SELECT ruleset, chapter, ruleset_title, title, kind, provenance FROM chapters ORDER BY ruleset, chapter")]


def list_tables(ruleset: str | None = None, *, db=None, rules=None) -> list[TableInfo]:
    """Every table (optionally of one ruleset), rollable ones marked by their die."""
    conn = connect(rules or db)
    sql = ("SELECT t.id, t.ruleset, t.title, t.columns, t.dice, t.section, "
           "(SELECT COUNT(*) FROM table_rows r WHERE r.table_id = t.id) AS n FROM rule_tables t")
    rows = conn.execute(sql + (" WHERE t.ruleset = ?" if ruleset else "") + " ORDER BY t.id",
                        (ruleset,) if ruleset else ())
    return [TableInfo(r["id"], r["ruleset"], r["title"], tuple(json.loads(r["columns"])), r["n"], r["dice"],
                      r["section"]) for r in rows]


def load_table(table_id: str, *, db=None, rules=None):
    """The table as a :class:`ruleslawyer.tables.RuleTable` (pure data for the engines), cached on
    the rules handle.

    Raises:
        UnknownIdError: no table has that id (the message lists similar ones).
    """
    return resolve_rules(rules or db).table(table_id)


def table(table_id: str, *, db=None, rules=None):
    """The table as a pandas DataFrame: the book's columns plus ``citation`` (the row's id).

    Rollable tables also get integer ``low`` and ``high`` columns for the die range.
    """
    import pandas as pd

    t = load_table(table_id, db=db, rules=rules)
    records = []
    for row in t.rows:
        rec = row.as_dict(t.columns)
        if t.rollable:
            rec["low"], rec["high"] = row.low, row.high
        rec["citation"] = row.unit_id
        records.append(rec)
    cols = list(t.columns) + (["low", "high"] if t.rollable else []) + ["citation"]
    frame = pd.DataFrame.from_records(records, columns=cols)
    frame.attrs["table_id"] = t.id
    frame.attrs["title"] = t.title
    return frame


@dataclass(frozen=True)
class TocEntry:
    """One section of the table of contents: its citation id, ruleset, title and heading level (1 = chapter)."""

    id: str
    ruleset: str
    title: str
    level: int

    def to_dict(self) -> dict:
        return asdict(self)


def toc(ruleset: str | None = SESSION, *, db=None, rules=None) -> list[TocEntry]:
    """Every section heading in book order (each ruleset's chapters, then their sections).

    Args:
        ruleset: only this ruleset's sections; None: every ruleset's; not given: the session's
            ruleset (:func:`set_session_ruleset`), every ruleset while none is set.

    Raises:
        RulesInputError: unknown ruleset (field ``ruleset``; the message lists them), or a session
            default no longer in the database (the message says how to clear it).
    """
    ruleset = in_session(ruleset, db=db, rules=rules)
    conn = connect(rules or db)
    rows = conn.execute("SELECT id, ruleset, title, level FROM sections"
                        + (" WHERE ruleset = ?" if ruleset else "") + " ORDER BY ord", (ruleset,) if ruleset else ())
    return [TocEntry(r[0], r[1], r[2], r[3]) for r in rows]


#: The example questions of a ruleset that declares none (and of no ruleset at all).
GENERIC_EXAMPLES = ("How does a parry work?", "How does initiative work?", "How does damage work?")


def example_questions(ruleset: str | None = None, n: int = 4, *, db=None, rules=None) -> tuple[str, ...]:
    """Up to ``n`` questions to offer a GM facing an empty search box.

    A registered ruleset's own ``examples`` (:class:`ruleslawyer.registry.Ruleset`); for ``None``
    (every ruleset) the first example of each registered ruleset in display order; where there are
    none (a house-rules ruleset, a ruleset declaring no examples), :data:`GENERIC_EXAMPLES`.
    A registered ruleset needs no database; any other name is looked up among the rulesets of the
    database ``db`` / ``rules`` (house ones). Ruleset ids match as in
    :func:`ruleslawyer.rulesdb.session.match_ruleset` (``"MASTERY"`` is ``mastery``).

    Raises:
        RulesInputError: ``ruleset`` is not a string or None, or names no ruleset (field ``ruleset``);
            ``n`` is not a whole number from 0 (field ``n``).
    """
    from ruleslawyer.registry import rulesets as registered

    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise RulesInputError("n", f"must be a whole number from 0, got {n!r}")
    found: tuple[str, ...]
    regs = registered()
    if ruleset is None or (isinstance(ruleset, str) and not ruleset.strip()):
        found = tuple(r.examples[0] for r in regs if r.examples)
    else:
        ids = tuple(r.id for r in regs)
        try:
            chosen = match_ruleset(ruleset, ids)
        except RulesInputError:
            if not isinstance(ruleset, str):
                raise
            chosen = match_ruleset(ruleset, known_rulesets(db=db, rules=rules))
        found = next((r.examples for r in regs if r.id == chosen), ())
    return (found or GENERIC_EXAMPLES)[:n]
