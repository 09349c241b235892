"""The working state of one Mythras Round while it is being played (:mod:`.fight`).

The fight's state is frozen; while a Round is played its fighters are replaced one change at a time
in a :class:`RoundContext`, which also gathers the log lines. Every change goes through
:meth:`RoundContext.note`, which makes the change's trace step and its log line from the same cites
and rulings, so the log and the trace cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ruleslawyer.dice import Dice
from ruleslawyer.encounter import LogLine
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import Citation, Ruling, RulingUse, Step, StepKind, resolve_ruling

from . import _tables, rulings as _r
from .fighter import Fighter
from .levels import DifficultyGrade, grade_row, step_grade

__all__ = ["RoundContext", "menu_cite"]


def menu_cite(action: str, rules: Rules) -> Citation:
    """The supplement ``action-menu`` row of ``action`` (e.g. "Regain Footing"): its type of AP spend."""
    row = _tables.action_row(action, rules)
    return Citation(row.unit_id, f"{action} is {row.cells[1]}")


@dataclass
class RoundContext:
    """One Round in play.

    Attributes:
        number: the Round's number (1 for the first).
        fighters: the fighters as they stand now, by name, in input order.
        dice: the Round's dice (its script, or the fight's seed and the Round number).
        overrides: ruling overrides for the whole fight.
        rules: the rules database.
        lines: the Round's log lines so far.
        arrived: whose Turn has come this Round (an ambushed fighter is flat-footed until then).
        bonus_spent: defenders whose surprise bonus Special Effect an attack already took.
    """

    number: int
    fighters: dict[str, Fighter]
    dice: Dice
    overrides: Mapping[str, str]
    rules: Rules
    lines: list[LogLine] = field(default_factory=list)
    arrived: set[str] = field(default_factory=set)
    bonus_spent: set[str] = field(default_factory=set)

    def get(self, name: str) -> Fighter:
        """The fighter called ``name`` as they stand now."""
        return self.fighters[name]

    def put(self, fighter: Fighter) -> None:
        """Replace the fighter of the same name."""
        self.fighters[fighter.name] = fighter

    def ruling(self, ruling: Ruling) -> RulingUse:
        """The answer of ``ruling`` in this fight."""
        return resolve_ruling(ruling.id, self.overrides)

    def note(self, kind: StepKind, label: str, text: str, cites: Iterable[Citation | str] = (),
             rulings: Iterable[RulingUse] = (), *, value: object = None, detail: str = "",
             children: Iterable[Step] = ()) -> Step:
        """A trace step for a change, and its log line (``text``) citing the same rules and rulings."""
        step = Step.of(kind, label, value=value, detail=detail or text, cites=list(cites), rulings=list(rulings),
                       children=list(children))
        refs = [c.rule_id for c in step.cites] + [u.ruling_id for u in step.rulings]
        self.lines.append(LogLine(self.number, text, tuple(dict.fromkeys(refs))))
        return step

    def grade(self, fighter: Fighter) -> tuple[DifficultyGrade, Step | None]:
        """The grade of ``fighter``'s own attack, parry or Evade from their condition: prone (ruling
        ``mythras.prone``) and a weapon stuck in them (ruling ``mythras.impaled-weapon``), combined by
        ruling ``mythras.combine-grades``. Standard and no step when neither applies; a step when one
        applies even if its ruling gives no grade, so the reader sees why."""
        conditions: list[tuple[str, int, RulingUse]] = []
        if fighter.prone:
            use = self.ruling(_r.PRONE)
            conditions.append(("Prone", {"formidable": 2, "hard": 1}.get(use.answer, 0), use))
        if fighter.impaled_by:
            use = self.ruling(_r.IMPALED_WEAPON)
            conditions.append(("A weapon stuck in them", 1 if use.answer == "stuck-hard" else 0, use))
        if not conditions:
            return DifficultyGrade.STANDARD, None
        combine = self.ruling(_r.COMBINE_GRADES)
        steps = [s for _, s, _ in conditions]
        total = sum(steps) if combine.answer == "add-steps" else max(steps)
        grade = step_grade(DifficultyGrade.STANDARD, total, rules=self.rules)
        children = [Step.of(StepKind.RULING, what, value=n, detail=f"{n} grade{'s' if n != 1 else ''} harder",
                            rulings=[use]) for what, n, use in conditions]
        row = grade_row(grade, self.rules).row
        return grade, Step.of(StepKind.RULING, f"Grade from {fighter.name}'s condition",
                              value=grade.value, detail=" and ".join(w for w, _, _ in conditions),
                              cites=[Citation(row.unit_id, f"{grade.value} row")],
                              rulings=[combine], children=children)
