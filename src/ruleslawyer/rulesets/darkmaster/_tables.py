"""The Against the Darkmaster supplement tables, read from the rules database and cached per database."""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.tables import RuleTable, TableRow, cached, cached_table, cell, clear_table_cache

__all__ = ["TABLE_IDS", "table", "clear_cache", "cell", "LengthRow", "PhaseRow", "lengths", "phases",
           "action_types"]

_S = "darkmaster/supplement/tables/"
TABLE_IDS = {
    "length": _S + "weapon-length",
    "phases": _S + "trs-phases",
    "action_types": _S + "action-types",
    "open_ended": _S + "open-ended-d100",
}

def clear_cache() -> None:
    """Forget every loaded table (call after rebuilding the database)."""
    clear_table_cache()


def table(role: str) -> RuleTable:
    """The table for ``role`` (a key of :data:`TABLE_IDS`), loaded once per database."""
    return cached_table(TABLE_IDS[role])


def _memo(name: str, build):
    return cached("darkmaster:" + name, build)


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
