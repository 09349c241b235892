"""The Against the Darkmaster supplement tables, read from the rules database and cached per database."""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.errors import RulesDataError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.tables import RuleTable, TableRow, cell

__all__ = ["TABLE_IDS", "table", "clear_cache", "cell", "LengthRow", "PhaseRow", "WeaponRow", "lengths", "phases",
           "action_types", "weapons", "name_key"]

_S = "darkmaster/supplement/tables/"
TABLE_IDS = {
    "length": _S + "weapon-length",
    "phases": _S + "trs-phases",
    "action_types": _S + "action-types",
    "open_ended": _S + "open-ended-d100",
    "weapons": _S + "weapon-examples",
}

def clear_cache(rules: Rules | None = None) -> None:
    """Forget the loaded tables of ``rules`` (default database), e.g. after rebuilding it."""
    resolve_rules(rules).reset()


def table(role: str, rules: Rules | None = None) -> RuleTable:
    """The table for ``role`` (a key of :data:`TABLE_IDS`), loaded once per database."""
    return resolve_rules(rules).table(TABLE_IDS[role])


def _memo(name: str, build, rules: Rules | None = None):
    return resolve_rules(rules).cached("darkmaster:" + name, build)


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


@dataclass(frozen=True)
class WeaponRow:
    """A weapon by name (``weapon-examples``): its length (None: a ranged weapon), and whether the chapter
    places it (``chapter``) or the kit's reading does (ruling ``darkmaster.weapon-examples``)."""

    name: str
    length: str | None
    chapter: bool
    row: TableRow


def name_key(text: str) -> str:
    """A weapon or length name as it is matched: lower case, letters and digits only ("Hand-axe" -> "handaxe")."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def lengths(rules: Rules | None = None) -> list[LengthRow]:
    """The melee weapon lengths, shortest first (``weapon-length``)."""
    def build():
        t = table("length", rules)
        rows = [LengthRow(int(cell(t, r, "Step")), cell(t, r, "Length"), cell(t, r, "Example"), r) for r in t.rows]
        return sorted(rows, key=lambda x: x.step)
    return _memo("lengths", build, rules)


def phases(rules: Rules | None = None) -> list[PhaseRow]:
    """The nine TRS phases in order (``trs-phases``)."""
    def build():
        t = table("phases", rules)
        return sorted((PhaseRow(int(cell(t, r, "Order")), cell(t, r, "Phase"), r) for r in t.rows),
                      key=lambda p: p.order)
    return _memo("phases", build, rules)


def action_types(rules: Rules | None = None) -> dict[str, TableRow]:
    """Action type name (Full, Half, Free) -> its ``action-types`` row."""
    def build():
        t = table("action_types", rules)
        return {cell(t, r, "Type"): r for r in t.rows}
    return _memo("action_types", build, rules)


def weapons(rules: Rules | None = None) -> dict[str, WeaponRow]:
    """:func:`name_key` of a weapon name -> its ``weapon-examples`` row.

    Raises:
        RulesDataError: a row's Source is neither "chapter" nor "kit's reading" (names the row id).
    """
    def build():
        t = table("weapons", rules)
        out = {}
        for r in t.rows:
            source = cell(t, r, "Source")
            if source not in ("chapter", "kit's reading"):
                raise RulesDataError(f"{r.unit_id}: Source must be 'chapter' or \"kit's reading\", not {source!r}")
            length = cell(t, r, "Length")
            out[name_key(cell(t, r, "Weapon"))] = WeaponRow(cell(t, r, "Weapon"), None if length == "ranged" else length,
                                                            source == "chapter", r)
        return out
    return _memo("weapons", build, rules)
