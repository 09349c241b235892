"""Rule tables as data, and rolling on a rollable one.

A :class:`RuleTable` is loaded from the rules database through a rules handle
(``Rules.table(table_id)``, cached on the handle); this module only looks rows up and rolls, so every roll lands on the row the book prints, with that row's
citation id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .dice import Dice, read_face
from .errors import RulesDataError, RulesInputError
from .trace import Citation, Step, StepKind, TracedResult

__all__ = ["RuleTable", "TableRow", "TableRoll", "SeeAlso", "see_also", "see_also_step", "headline", "roll_table", "cell"]


@dataclass(frozen=True)
class TableRow:
    """One row: its 1-based index, citation id, cells (one string per column), and die range."""

    index: int
    unit_id: str
    cells: tuple[str, ...]
    low: int | None = None
    high: int | None = None

    def as_dict(self, columns: tuple[str, ...]) -> dict[str, str]:
        """The row as ``{column header: cell}``."""
        return dict(zip(columns, self.cells))


@dataclass(frozen=True)
class RuleTable:
    """A table of the rules database.

    Attributes:
        id: table id, ``<ruleset>/<chapter>/tables/<name>`` (e.g. ``mastery/combat/tables/trauma``).
        title: the heading the table sits under.
        ruleset: ruleset id.
        section: citation id of the section holding the table.
        columns: header cells.
        rows: the rows in book order.
        dice: the die of a rollable table (``d100``), else None.
        sides: faces of that die, else None.
    """

    id: str
    title: str
    ruleset: str
    section: str
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]
    dice: str | None = None
    sides: int | None = None

    @property
    def rollable(self) -> bool:
        return self.sides is not None

    def row_for(self, face: int | str) -> TableRow:
        """The row covering ``face`` (an int, or the face as read off the die: ``"00"`` on a d100 is 100).

        Raises:
            RulesInputError: the table is not rollable, or ``face`` is outside 1..sides.
        """
        if not self.rollable:
            raise RulesInputError("table", f"{self.id} is not a rollable table (its first column is "
                                           f"{self.columns[0]!r}, not a die)")
        face = read_face(face, self.sides, "roll")
        for row in self.rows:
            if row.low is not None and row.low <= face <= row.high:
                return row
        raise RulesInputError("roll", f"no row of {self.id} covers {face}")  # the build forbids this


@dataclass(frozen=True)
class SeeAlso:
    """The row a cell's "As <row name>." sends the reader to, in the same table.

    Attributes:
        phrase: the words after "As" (``"left arm"``).
        row: the row referred to.
        text: that row's effect: its main cell after the row's name, verbatim.
    """

    phrase: str
    row: TableRow
    text: str

    @property
    def line(self) -> str:
        """``"As left arm: <text> [<row id>]"``."""
        return f"As {self.phrase}: {self.text} [{self.row.unit_id}]"

    def to_dict(self) -> dict[str, str]:
        """``{"phrase", "text", "unit_id", "line"}``."""
        return {"phrase": self.phrase, "text": self.text, "unit_id": self.row.unit_id, "line": self.line}


_AS = re.compile(r"^As (?P<name>[^.]+)\.$")
_SIDES = {"left": "right", "right": "left"}


def _main(table: RuleTable, row: TableRow) -> str:
    """The row's main cell: the first after the die column of a rollable table, else the first."""
    i = 1 if table.rollable and len(row.cells) > 1 else 0
    return row.cells[i].strip() if i < len(row.cells) else ""


def _name_effect(text: str) -> tuple[str, str]:
    """``"Skull Fracture. Whenever ..."`` -> (``"Skull Fracture"``, ``"Whenever ..."``); no ". " -> (text, "")."""
    name, dot, effect = text.partition(". ")
    return (name.rstrip("."), effect.strip()) if dot else (text.rstrip("."), "")


def _mirror(words: str) -> str:
    return " ".join(_SIDES.get(w.lower(), w.lower()) for w in words.split())


def see_also(table: RuleTable, row: TableRow) -> SeeAlso | None:
    """Resolve a main cell whose effect is only "As <row name>." to the row it names.

    ``"Break your right arm. As left arm."`` names the row whose name is this one's with the mirrored
    words swapped ("right arm" -> "left arm"): ``"Break your left arm"``. A phrase that is a whole row
    name is that row; else the one row whose name contains the phrase. Pure: reads only ``table``.

    Returns:
        A :class:`SeeAlso`, or None when the cell says no "As ..." or no single row matches.
    """
    name, effect = _name_effect(_main(table, row))
    m = _AS.match(effect)
    if not m:
        return None
    phrase = m.group("name").strip()
    names = [(r, _name_effect(_main(table, r))) for r in table.rows if r is not row]
    want = phrase.lower()
    mirror = _mirror(phrase)
    swapped = re.sub(re.escape(mirror), want, name.lower()) if mirror != want and mirror in name.lower() else None
    for test in (lambda n: n == swapped, lambda n: n == want):
        hits = [(r, e) for r, (n, e) in names if test(n.lower())]
        if len(hits) == 1:
            return SeeAlso(phrase, hits[0][0], hits[0][1])
    hits = [(r, e) for r, (n, e) in names if want in n.lower() and not _AS.match(e)]
    return SeeAlso(phrase, hits[0][0], hits[0][1]) if len(hits) == 1 else None


@dataclass(frozen=True)
class TableRoll(TracedResult):
    """The result of rolling on a table: the face, the row (with its citation) and the trace.

    ``see_also`` is the row an "As <row name>." cell refers to (:func:`see_also`), else None; the
    row's own cells stay verbatim."""

    table_id: str
    dice: str
    roll: int
    row: TableRow
    columns: tuple[str, ...]
    seed: int | None
    trace: Step
    see_also: SeeAlso | None = None

    @property
    def cells(self) -> dict[str, str]:
        return self.row.as_dict(self.columns)

    @property
    def citation(self) -> str:
        """The citation id of the row rolled (``mastery/combat/wounds-injuries-and-trauma/trauma-table#5``)."""
        return self.row.unit_id


def headline(table: RuleTable, row: TableRow, face: int) -> str:
    """``"Trauma 42: Skull Fracture — Whenever you spend AP ..."``: the main column's header, the face,
    the row's name and its effect (the name alone when the cell has one sentence)."""
    header = table.columns[1] if table.rollable and len(table.columns) > 1 else table.title
    name, effect = _name_effect(_main(table, row))
    return f"{header} {face}: {name}" + (f" — {effect}" if effect else "")


def see_also_step(found: SeeAlso) -> Step:
    """An INFO step quoting the row an "As ..." cell refers to, citing it."""
    return Step.of(StepKind.INFO, f"As {found.phrase}", detail=found.text, cites=[found.row.unit_id])


def roll_table(table: RuleTable, *, roll: int | None = None, dice: Dice | None = None,
               slot: str = "table") -> TableRoll:
    """Roll the table's die (or take ``roll`` as the face rolled) and return the row it lands on.

    The trace: a headline (:func:`headline`; the other columns as detail) over one roll step
    citing the row landed on, and, for an "As <row name>." row, a step quoting the row it names.

    Args:
        table: a rollable :class:`RuleTable`.
        roll: the face already rolled at the table, 1..sides, as an int or as read off the die
            (``"00"`` on a d100 is 100, ``"0"`` on a d10 is 10); None to roll.
        dice: the dice to roll with (seeded or scripted); a fresh unseeded one if None.
        slot: scripted-dice slot name for the roll.

    Raises:
        RulesInputError: the table is not rollable or ``roll`` is out of range.
    """
    if not table.rollable:
        table.row_for(1)  # raises the not-rollable error
    seed = None
    if roll is None:
        dice = dice or Dice()
        scripted = dice.is_scripted(slot)
        seed = None if scripted else dice.seed
        face = dice.roll(table.sides, slot)
        how = (f"scripted {table.dice}" if scripted else
               f"rolled {table.dice}" + (f" (seed {seed})" if seed is not None else ""))
    else:
        face = read_face(roll, table.sides, "roll")
        how = f"{table.dice} result entered"
    row = table.row_for(face)
    span = f"{row.low}" if row.low == row.high else f"{row.low}–{row.high}"
    found = see_also(table, row)
    rest = "; ".join(f"{c}: {v}" for c, v in list(row.as_dict(table.columns).items())[2:] if v.strip())
    children = [Step.of(StepKind.ROLL, how, value=face, detail=f"row {span}",
                        cites=[Citation(row.unit_id, f"row {span} of {table.id}")])]
    trace = Step.of(StepKind.RESULT, headline(table, row, face), detail=rest,
                    children=children + ([see_also_step(found)] if found else []))
    return TableRoll(table.id, table.dice, face, row, table.columns, seed, trace, found)


def cell(table: RuleTable, row: TableRow, column: str) -> str:
    """The cell of ``row`` under the first header starting with ``column`` (case-insensitive).

    Raises:
        RulesDataError: the table has no such column (the database is not the one the engine expects).
    """
    want = column.lower()
    for i, col in enumerate(table.columns):
        if col.lower().startswith(want):
            return row.cells[i].strip() if i < len(row.cells) else ""
    raise RulesDataError(f"table {table.id} has no column {column!r}; columns: {', '.join(table.columns)}")
