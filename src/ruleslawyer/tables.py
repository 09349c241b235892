"""Rule tables as data, and rolling on a rollable one.

A :class:`RuleTable` is loaded from the rules database through a rules handle
(``Rules.table(table_id)``, cached on the handle); this module only looks rows up and rolls, so every roll lands on the row the book prints, with that row's
citation id.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import Dice, read_face
from .errors import RulesDataError, RulesInputError
from .trace import Citation, Step, StepKind, TracedResult

__all__ = ["RuleTable", "TableRow", "TableRoll", "roll_table", "cell"]


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
class TableRoll(TracedResult):
    """The result of rolling on a table: the face, the row (with its citation) and the trace."""

    table_id: str
    dice: str
    roll: int
    row: TableRow
    columns: tuple[str, ...]
    seed: int | None
    trace: Step

    @property
    def cells(self) -> dict[str, str]:
        return self.row.as_dict(self.columns)

    @property
    def citation(self) -> str:
        """The citation id of the row rolled (``mastery/combat/wounds-injuries-and-trauma/trauma-table#5``)."""
        return self.row.unit_id


def roll_table(table: RuleTable, *, roll: int | None = None, dice: Dice | None = None,
               slot: str = "table") -> TableRoll:
    """Roll the table's die (or take ``roll`` as the face rolled) and return the row it lands on.

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
    trace = Step.of(
        StepKind.RESULT, f"{table.title}: {row.cells[1] if len(row.cells) > 1 else row.cells[0]}",
        value=face,
        detail=f"{how}: {face}, row {span}",
        cites=[Citation(row.unit_id, f"row {span} of {table.id}")],
        children=[Step.of(StepKind.ROLL, how, value=face, cites=[table.section])],
    )
    return TableRoll(table.id, table.dice, face, row, table.columns, seed, trace)


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
