"""Looking rules and tables up by citation id."""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass

from ruleslawyer.errors import UnknownIdError

from .db import connect

__all__ = ["Rule", "RuleContext", "TableInfo", "UnknownIdError", "get_rule", "context", "list_tables",
           "load_table", "table", "rulesets", "all_ids"]




@dataclass(frozen=True)
class Rule:
    """One citable unit of the rules.

    Attributes:
        id: citation id (``mastery/combat/death/fighting-on#2``; a heading's id has no ``#``).
        ruleset, chapter: ids.
        section: the section id the unit belongs to.
        kind: ``heading``, ``paragraph``, ``item`` or ``row``.
        breadcrumb: ``Mastery › Combat › Death › Fighting On ¶2``.
        text: the verbatim text.
        source: ``file:line`` of the Markdown source.
        provenance_kind: ``chapter``, ``supplement`` or ``house-rules``.
    """

    id: str
    ruleset: str
    chapter: str
    section: str
    kind: str
    breadcrumb: str
    text: str
    source: str
    provenance_kind: str

    def to_dict(self) -> dict:
        return asdict(self)


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


_RULE_SQL = """SELECT u.id, u.ruleset, u.chapter, u.section, u.kind, u.breadcrumb, u.text,
 u.source_file || ':' || u.source_line AS source, c.kind AS pkind, u.ord
 FROM units u JOIN chapters c ON c.ruleset = u.ruleset AND c.chapter = u.chapter"""


def _rule(r) -> Rule:
    return Rule(r["id"], r["ruleset"], r["chapter"], r["section"], r["kind"], r["breadcrumb"], r["text"],
                r["source"], r["pkind"])


def _clean_id(rule_id: str) -> str:
    return re.sub(r"\s+", "", str(rule_id)).strip("/")


def _close_ids(conn, rule_id: str) -> str:
    import difflib

    ids = [r[0] for r in conn.execute("SELECT id FROM units")]
    close = difflib.get_close_matches(rule_id, ids, n=3, cutoff=0.6)
    return f"; did you mean {', '.join(close)}?" if close else "; search for it with `ruleslawyer search`"


def get_rule(rule_id: str, *, db=None, rules=None) -> Rule:
    """The unit with this citation id.

    Raises:
        UnknownIdError: no unit has that id (the message suggests close ids).
    """
    conn = connect(rules or db)
    rid = _clean_id(rule_id)
    row = conn.execute(_RULE_SQL + " WHERE u.id = ?", (rid,)).fetchone()
    if row is None:
        raise UnknownIdError(f"no rule with id {rule_id!r}{_close_ids(conn, rid)}")
    return _rule(row)


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
    """The table as a :class:`ruleslawyer.tables.RuleTable` (pure data for the engines).

    Raises:
        UnknownIdError: no table has that id (the message lists similar ones).
    """
    from ruleslawyer.tables import RuleTable, TableRow

    conn = connect(rules or db)
    tid = _clean_id(table_id)
    t = conn.execute("SELECT * FROM rule_tables WHERE id = ?", (tid,)).fetchone()
    if t is None:
        ids = [r[0] for r in conn.execute("SELECT id FROM rule_tables ORDER BY id")]
        short = [i for i in ids if i.endswith("/" + tid) or tid in i]
        hint = f"; did you mean {', '.join(short[:3])}?" if short else f"; tables: {', '.join(ids)}"
        raise UnknownIdError(f"no table with id {table_id!r}{hint}")
    rows = conn.execute("SELECT row_index, unit_id, cells, low, high FROM table_rows WHERE table_id = ? "
                        "ORDER BY row_index", (tid,))
    return RuleTable(t["id"], t["title"], t["ruleset"], t["section"], tuple(json.loads(t["columns"])),
                     tuple(TableRow(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4]) for r in rows),
                     t["dice"], t["sides"])


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
