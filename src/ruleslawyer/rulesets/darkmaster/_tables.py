"""The Against the Darkmaster supplement tables, read from the rules database and cached per database."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ruleslawyer.tables import RuleTable, TableRow

__all__ = ["TABLE_IDS", "table", "clear_cache", "cell", "LengthRow", "PhaseRow", "lengths", "phases",
           "action_types"]

_S = "darkmaster/supplement/tables/"
TABLE_IDS = {
    "length": _S + "weapon-length",
    "phases": _S + "trs-phases",
    "action_types": _S + "action-types",
    "open_ended": _S + "open-ended-d100",
}

_cache: dict[tuple, object] = {}


def _key(name: str) -> tuple:
    return (name, os.environ.get("RULESLAWYER_DB"), os.environ.get("RULESLAWYER_HOUSE_RULES"))


def clear_cache() -> None:
    """Forget every loaded table (call after rebuilding the database)."""
    _cache.clear()


def table(role: str) -> RuleTable:
    """The table for ``role`` (a key of :data:`TABLE_IDS`)."""
    key = _key(role)
    t = _cache.get(key)
    if t is None:
        from ruleslawyer.rulesdb import load_table  # lazy

        t = _cache[key] = load_table(TABLE_IDS[role])
    return t  # type: ignore[return-value]


def _memo(name: str, build):
    key = _key("parsed:" + name)
    v = _cache.get(key)
    if v is None:
        v = _cache[key] = build()
    return v


def cell(t: RuleTable, row: TableRow, column: str) -> str:
    """The cell under the header starting with ``column`` (case-insensitive)."""
    want = column.lower()
    for i, col in enumerate(t.columns):
        if col.lower().startswith(want):
            return row.cells[i].strip() if i < len(row.cells) else ""
    raise LookupError(f"table {t.id} has no column {column!r}; columns: {', '.join(t.columns)}")


@dataclass(frozen=True)
class LengthRow:
    step: int
    name: str
    example: str
    row: TableRow


@dataclass(frozen=True)
class PhaseRow:
    order: int
    name: str
    row: TableRow


def lengths() -> list[LengthRow]:
    """The melee weapon lengths, shortest first (``weapon-length``)."""
    def build():
        t = table("length")
        rows = [LengthRow(int(cell(t, r, "Step")), cell(t, r, "Length"), cell(t, r, "Example"), r) for r in t.rows]
        return sorted(rows, key=lambda x: x.step)
    return _memo("lengths", build)


def phases() -> list[PhaseRow]:
    """The nine TRS phases in order (``trs-phases``)."""
    def build():
        t = table("phases")
        return sorted((PhaseRow(int(cell(t, r, "Order")), cell(t, r, "Phase"), r) for r in t.rows),
                      key=lambda p: p.order)
    return _memo("phases", build)


def action_types() -> dict[str, TableRow]:
    """Action type name (Full, Half, Free) -> its ``action-types`` row."""
    def build():
        t = table("action_types")
        return {cell(t, r, "Type"): r for r in t.rows}
    return _memo("action_types", build)
