"""Exact odds of the Mastery Trauma table: each row, each tier, each finger and lost part.

Computed by rolling the engine's own :func:`~ruleslawyer.rulesets.mastery.trauma.roll_trauma` on every
d100 face (and every 1d10 finger face where a row asks for one), so the odds are those of the table
stored in the rules database (``mastery/combat/tables/trauma``) under the caller's rulings and sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult

from .core import DEFAULT_TOLERANCE, Dist, check_tolerance, enumerate_engine

__all__ = ["TraumaRowOdds", "TraumaOdds", "trauma_odds"]


@dataclass(frozen=True)
class TraumaRowOdds:
    """One row of the Trauma table and its probability.

    Attributes:
        unit_id: the row's citation id; range: ``"3–5"``; text: its first sentence; tier: Minor,
        Severe, Grievous or "" (none); probability: exact.
    """

    unit_id: str
    range: str
    text: str
    tier: str
    probability: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {"unit_id": self.unit_id, "range": self.range, "text": self.text, "tier": self.tier,
                "probability": float(self.probability)}


@dataclass(frozen=True)
class TraumaOdds(TracedResult):
    """Odds of one Trauma roll.

    Attributes:
        rows: every row of the table with its probability, in table order.
        tiers: tier -> probability ("" = no tiered Trauma: Close Call or Minor Scar).
        p_close_call: P(Close Call! No Trauma).
        effects: the engine's effect on the sheet (``"lost left eye"``, ``"no further effect"`` ...)
            -> probability (only when a sheet is given).
        fingers: finger lost -> probability (the 1d10 sub-roll).
        truncated_mass: mass cut off (only with the ``reroll`` answer of ``mastery.trauma-lost-part``).
        trace: cited steps.
    """

    rows: tuple[TraumaRowOdds, ...]
    tiers: Dist
    p_close_call: Fraction
    effects: Dist
    fingers: Dist
    truncated_mass: Fraction
    trace: Step


def trauma_odds(*, sheet=None, rulings: Mapping[str, str] | None = None,
                tolerance: float | Fraction = DEFAULT_TOLERANCE, rules: Rules | None = None) -> TraumaOdds:
    """Probability of each Trauma row and tier (``mastery/combat/wounds-injuries-and-trauma/trauma-table#6``:
    roll 1d100 for each Trauma).

    Worked: "Close Call! No Trauma." rows cover 3–5, 8–10, 13–15, 19–20, 24–25, 29–30, 34–35,
    39–40, 44–45, 52–53, 60–61, 67–70, 77–80: 3+3+3+2+2+2+2+2+2+2+2+4+4 = 33 faces -> 33/100.

    Args:
        sheet: a :class:`~ruleslawyer.rulesets.mastery.trauma.TraumaSheet` (parts already lost
            change the effect, or reroll under ``mastery.trauma-lost-part``), or None.
        rulings: overrides (``mastery.trauma-lost-part``, ``mastery.finger-order``).
        tolerance: most mass to cut off.
        rules: the rules database whose Trauma table is rolled (default database).
    """
    from ruleslawyer.rulesets.mastery import ids, trauma
    from ruleslawyer.rulesets.mastery import rulings as R
    from ruleslawyer.rulesets.mastery.tiers import load_table

    tol = check_tolerance(tolerance)
    R.check(rulings)
    rules = resolve_rules(rules)
    table = load_table(ids.TRAUMA_TABLE, rules)

    def run(d: Dice):
        t = trauma.roll_trauma(dice=d, sheet=sheet, rulings=rulings, table=table)
        return (t.unit_id, t.tier, t.close_call, t.effect, t.finger_lost or "")

    dist = enumerate_engine(run, tolerance=tol)
    by_row = dist.map(lambda o: o[0])
    rows = []
    for row in table.rows:
        span = f"{row.low}" if row.low == row.high else f"{row.low}–{row.high}"
        text = row.cells[1].split(". ")[0].rstrip(".")
        tier = row.cells[2] if len(row.cells) > 2 else ""
        rows.append(TraumaRowOdds(row.unit_id, span, text, tier, by_row[row.unit_id]))
    tiers = dist.map(lambda o: o[1])
    p_close = dist.prob(lambda o: o[2])
    effects = dist.map(lambda o: o[3]) if sheet is not None else Dist({})
    fingers = dist.map(lambda o: o[4]).conditional(lambda f: f != "").scaled(dist.prob(lambda o: o[4] != ""))
    uses = [R.ruling_use(R.FINGER_ORDER, rulings)] + ([R.ruling_use(R.TRAUMA_LOST_PART, rulings)] if sheet else [])
    children = [Step.of(StepKind.RULE, "Roll 1d100 for each Trauma: every face through the engine", f"{len(dist)} distinct results",
                        cites=[ids.TRAUMA_ROLL, Citation(ids.TRAUMA_TABLE, "the table as stored")], rulings=uses)]
    base = ids.TRAUMA_ROLL.rsplit("#", 1)[0]
    for n, tier_name in ((7, "Minor"), (8, "Severe"), (9, "Grievous")):
        children.append(Step.of(StepKind.RESULT, f"{tier_name} Trauma", f"{float(tiers[tier_name]):.4g}",
                                cites=[ids.TRAUMA_ROLL, f"{base}#{n}"]))
    children.append(Step.of(StepKind.RESULT, "Close Call! No Trauma", f"{float(p_close):.4g}",
                            cites=[r.unit_id for r in rows if r.text.startswith("Close Call")][:1]))
    trace = Step.of(StepKind.RESULT, "Trauma table odds", f"P(Close Call) = {float(p_close):.4g}",
                    cites=[ids.TRAUMA_TABLE], children=children)
    return TraumaOdds(tuple(rows), tiers, p_close, effects, fingers, dist.truncated_mass, trace)
