"""Open-ended d100 rolls for CMB and skill rolls (supplement table ``open-ended-d100``).

96–00 rolls again and adds, again on each further 96+; 01–05 rolls again and subtracts (whether a
96+ on that extra roll keeps subtracting is the ruling ``darkmaster.low-open-end``). Runs stop after
the kit's explosion cap (ruling ``kit.explosion-cap``) and say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ruleslawyer.dice import Dice, d100_label, explosion_cap
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.tables import roll_table
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, TracedResult, resolve_ruling

from . import _tables, rulings as _r

__all__ = ["OpenEndedRoll", "roll_open_ended"]


@dataclass(frozen=True)
class OpenEndedRoll(TracedResult):
    """An open-ended d100: ``faces`` in roll order, the signed ``total``, and whether the cap stopped it.

    Attributes:
        faces: every d100 face rolled (1..100, 100 = 00).
        total: the result (may be below 1 or above 100).
        end: "high", "low" or None (no open end).
        capped: rolling stopped at the explosion cap.
        trace: the explanation.
    """

    faces: tuple[int, ...]
    total: int
    end: str | None
    capped: bool
    trace: Step


def _kind(row) -> str | None:
    text = row.cells[1].lower()
    return "low" if text.startswith("low") else "high" if text.startswith("high") else None


def roll_open_ended(dice: Dice, slot: str = "cmb", rulings: Mapping[str, str] | None = None, *,
                    rules: Rules | None = None) -> OpenEndedRoll:
    """Roll an open-ended d100 from ``slot`` on the ``open-ended-d100`` table of ``rules`` (default database).

    Examples (scripted): 97, 98, 12 -> 97 + 98 + 12 = 207; 03, 45 -> 3 − 45 = −42;
    03, 97, 20 -> 3 − 97 − 20 = −114 (``repeat-on-96``) or 3 − 97 = −94 (``once``).

    Raises:
        DiceScriptError: a scripted slot ran out or holds an impossible face.
    """
    t = _tables.table("open_ended", resolve_rules(rules))
    first = roll_table(t, dice=dice, slot=slot)
    end = _kind(first.row)
    children = [Step.of(StepKind.ROLL, "d100 rolled", value=first.roll, detail=f"read {d100_label(first.roll)}",
                        cites=[Citation(first.row.unit_id, first.row.cells[0])])]
    faces, capped, uses = [first.roll], False, []
    if end is not None:
        capped, uses = _open_end(t, first.row, end, dice, slot, rulings, faces, children)
    sign = -1 if end == "low" else 1
    total = faces[0] + sign * sum(faces[1:])
    trace = Step.of(StepKind.RESULT, "Open-ended d100 total", value=total,
                    detail=" ".join(f"{'' if i == 0 else ('+ ' if sign > 0 else '− ')}{f}" for i, f in enumerate(faces))
                    + (" (stopped at the cap)" if capped else ""),
                    rulings=list(dict.fromkeys(uses)), children=children)
    return OpenEndedRoll(tuple(faces), total, end, capped, trace)


def _open_end(t, row, end: str, dice: Dice, slot: str, rulings: Mapping[str, str] | None, faces: list[int],
              children: list[Step]) -> tuple[bool, list[RulingUse]]:
    """Roll the extra d100s of an open end (appended to ``faces`` and ``children``): the high end adds and
    rolls again on 96+ (the high row); the low end subtracts, and rolls again on 96+ only under the ruling
    ``darkmaster.low-open-end = repeat-on-96``. Returns (capped, rulings used)."""
    high_row = next(r for r in t.rows if _kind(r) == "high")
    again_from = high_row.low
    uses: list[RulingUse] = []
    low_use = resolve_ruling(_r.LOW_OPEN_END.id, rulings) if end == "low" else None
    if low_use is not None:
        uses.append(low_use)
    repeat = low_use is None or low_use.answer == "repeat-on-96"
    cap, cap_use = explosion_cap(rulings)
    for _ in range(cap):
        face = dice.roll(100, slot)
        faces.append(face)
        again = repeat and face >= again_from
        cites = [Citation(row.unit_id, f"{end} open end")]
        if again and end == "high":
            cites.append(Citation(high_row.unit_id, "96 or more: roll again"))
        children.append(Step.of(StepKind.ROLL, f"{'added' if end == 'high' else 'subtracted'}: d100 rolled again",
                                value=face, detail=f"read {d100_label(face)}", cites=cites,
                                rulings=[low_use] if again and low_use else []))
        if not again:
            return False, uses
    return True, uses + [cap_use]
