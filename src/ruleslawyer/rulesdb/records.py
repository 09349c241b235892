"""The rules database's records read with SQL: a unit as a :class:`Rule`, a table as a
:class:`~ruleslawyer.tables.RuleTable`. The lowest module of the look-up: it takes a connection and
imports neither the rules handle nor the look-up functions built on it."""


from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass

from typing import TYPE_CHECKING

from ruleslawyer.errors import UnknownIdError

if TYPE_CHECKING:  # pragma: no cover
    from ruleslawyer.tables import RuleTable

__all__ = ["Rule", "RULE_SQL", "row_to_rule", "clean_id", "read_rule", "read_table"]


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


RULE_SQL = """SELECT u.id, u.ruleset, u.chapter, u.section, u.kind, u.breadcrumb, u.text,
 u.source_file || ':' || u.source_line AS source, c.kind AS pkind, u.ord
 FROM units u JOIN chapters c ON c.ruleset = u.ruleset AND c.chapter = u.chapter"""


def row_to_rule(r) -> Rule:
    """A :class:`Rule` from a row of :data:`RULE_SQL`."""
    return Rule(r["id"], r["ruleset"], r["chapter"], r["section"], r["kind"], r["breadcrumb"], r["text"],
                r["source"], r["pkind"])


def clean_id(rule_id: str) -> str:
    return re.sub(r"\s+", "", str(rule_id)).strip("/")


def close_ids(conn, rule_id: str) -> str:
    import difflib

    ids = [r[0] for r in conn.execute("SELECT id FROM units")]
    close = difflib.get_close_matches(rule_id, ids, n=3, cutoff=0.6)
    return f"; did you mean {', '.join(close)}?" if close else "; search for it with `ruleslawyer search`"


def read_rule(conn, rule_id: str) -> Rule:
    """The unit with this citation id, read on ``conn``.

    Raises:
        UnknownIdError: no unit has that id (the message suggests close ids).
    """
    rid = clean_id(rule_id)
    row = conn.execute(RULE_SQL + " WHERE u.id = ?", (rid,)).fetchone()
    if row is None:
        raise UnknownIdError(f"no rule with id {rule_id!r}{close_ids(conn, rid)}")
    return row_to_rule(row)


def read_table(conn, table_id: str) -> "RuleTable":
    """The table ``table_id`` read on ``conn`` (pure data for the engines).

    Raises:
        UnknownIdError: no table has that id (the message lists similar ones).
    """
    from ruleslawyer.tables import RuleTable, TableRow  # the engines' table type; a cold search needs none

    tid = clean_id(table_id)
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
