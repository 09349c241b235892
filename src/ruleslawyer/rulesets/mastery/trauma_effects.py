"""What the Traumas on a sheet do where they bite, read from the Trauma table's own sentences.

Each sheet entry (``"16: Punctured Lung"``) names its d100 roll; the row that roll lands on in
``mastery/combat/tables/trauma`` (from the rules database) is read for the sentences below, verbatim,
so a Trauma's effect is the book's text, not a copy in Python. A row that reads "As left eye." takes
the effects of the row before it (its left-hand twin).

Effects (:class:`Effect` kinds): ``one-ap`` ("You have 1 AP per round."), ``act-trial`` (the
Endurance trial "Whenever you spend AP to attack or cast a spell"; ``act-trial-precipitation`` for
Painful Scar, only "In rain, sleet, hail, or snow"), ``ranged-penalty`` and ``sight-penalty`` (lost
eye, Blurred Vision), ``balance-penalty``, ``leg-penalty``, ``movement-halved``,
``movement-reduced``, ``repeated-move-prone``, ``repeated-move-trial`` (with its DC),
``cannot-walk``, ``suffocating`` (both lungs punctured).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesDataError, RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind

from . import _tables
from . import rulings as R
from .tiers import named_dc, roll_trial
from .trauma import TraumaSheet

__all__ = ["Effect", "sheet_effects", "effects_of", "stacked", "penalty", "act_trial", "trauma_face"]


@dataclass(frozen=True)
class Effect:
    """One effect of one Trauma on the sheet.

    Attributes:
        kind: what it does (see the module docstring).
        amount: the penalty (a positive number to subtract), the trial's DC, or the squares lost; 0 if none.
        trauma: the sheet entry (``"41: Cracked Sternum"``).
        row: citation id of the table row whose sentence says so; sentence: that sentence, verbatim.
        twin: the rolled row's id when it reads "As left ..." (its effects are ``row``'s), else "".
    """

    kind: str
    amount: int
    trauma: str
    row: str
    sentence: str
    twin: str = ""

    @property
    def cites(self) -> tuple[Citation, ...]:
        """The row that says so (with the sentence), and the rolled "As left ..." row if any."""
        return (Citation(self.row, self.sentence),) + ((Citation(self.twin, "as its left-hand twin"),) if self.twin else ())


_SENTENCES: tuple[tuple[str, str], ...] = (
    ("one-ap", r"You have 1 AP per round\."),
    ("act-trial", r"(?<!snow, )[Ww]henever you spend AP to attack or cast a spell, make an Endurance trial "
                  r"\((?P<name>\w+), (?P<n>\d+)\); on failure, the AP is spent with no effect\."),
    ("act-trial-precipitation", r"In rain, sleet, hail, or snow, whenever you spend AP to attack or cast a spell, "
                                r"make an Endurance trial \((?P<name>\w+), (?P<n>\d+)\); on failure, the AP is "
                                r"spent with no effect\."),
    ("ranged-penalty", r"Penalty -(?P<n>\d+) on Perception trials that rely on sight and on ranged attack rolls\."),
    ("sight-penalty", r"Penalty -(?P<n>\d+) on Perception trials that rely on sight and on ranged attack rolls\."),
    ("balance-penalty", r"Penalty -(?P<n>\d+) on trials to keep your balance\."),
    ("leg-penalty", r"Penalty -(?P<n>\d+) on Strength and Physique trials that use your legs\."),
    ("movement-halved", r"Movement halved, [^.]*\."),
    ("movement-reduced", r"Movement reduced by (?P<n>\d+) \(5 ft\)\."),
    ("repeated-move-prone", r"When you move more than once in a round, you fall Prone\."),
    ("repeated-move-trial", r"When you move more than once in a round, make a Physique trial "
                            r"\((?P<name>\w+), (?P<n>\d+)\) or fall Prone\."),
    ("cannot-walk", r"You lose the use of your legs and cannot walk\."),
    ("suffocating", r"If both lungs are punctured, you are suffocating: advance Exhausted by 1 tier at the end of "
                    r"each of your turns\."),
)
_AS_TWIN = re.compile(r"\. As (left|right) [\w ]+\.$")


def trauma_face(entry: str, field: str = "sheet.traumas") -> int:
    """The d100 roll a sheet entry starts with (``"16: Punctured Lung"`` -> 16).

    Raises:
        RulesInputError: the entry does not start with its roll (field ``field``).
    """
    head, sep, _ = str(entry).partition(":")
    if not sep or not head.strip().isdigit() or not 1 <= int(head) <= 100:
        raise RulesInputError(field, f"each Trauma starts with its d100 roll (1-100), e.g. '16: Punctured Lung'; "
                                     f"got {entry!r}")
    return int(head)


def _row_effects(entry: str, rules: Rules, lungs: int) -> tuple[Effect, ...]:
    table = _tables.trauma_table(rules)
    row = table.row_for(trauma_face(entry))
    text, source = row.cells[1], row
    if _AS_TWIN.search(text):  # "As left eye.": the row before it says what it does
        source = table.rows[row.index - 2]
        text = source.cells[1]
    out = []
    for kind, pattern in _SENTENCES:
        m = re.search(pattern, text)
        if m is None or (kind == "suffocating" and lungs < 2):
            continue
        groups = m.groupdict()
        amount = int(groups.get("n") or 0)
        if groups.get("name") and named_dc(groups["name"], rules)[0] != amount:
            raise RulesDataError(f"{source.unit_id}: {groups['name']} is DC {named_dc(groups['name'], rules)[0]} in "
                                 f"the named-dc table, but the row says {amount}")
        out.append(Effect(kind, amount, entry, source.unit_id, m.group(0), row.unit_id if source is not row else ""))
    return tuple(out)


def sheet_effects(sheet: TraumaSheet, rules: Rules | None = None) -> tuple[Effect, ...]:
    """Every effect of every Trauma on ``sheet``, in the sheet's order (cached per sheet on ``rules``).

    Raises:
        RulesInputError: an entry without its d100 roll (field ``sheet.traumas``).
    """
    rules = resolve_rules(rules)
    key = f"mastery:trauma-effects:{sheet.punctured_lungs}:{chr(31).join(sheet.traumas)}"
    return rules.cached(key, lambda: tuple(e for t in sheet.traumas
                                           for e in _row_effects(t, rules, sheet.punctured_lungs)))


def effects_of(sheet: TraumaSheet, kind: str, rules: Rules | None = None) -> tuple[Effect, ...]:
    """The effects of one ``kind`` on ``sheet``."""
    return tuple(e for e in sheet_effects(sheet, rules) if e.kind == kind)


def stacked(effects: tuple[Effect, ...], rulings) -> tuple[tuple[Effect, ...], list]:
    """The effects that apply under ``mastery.trauma-effects-stack`` (all, or the largest one)."""
    if len(effects) < 2:
        return effects, []
    use = R.ruling_use(R.TRAUMA_EFFECTS_STACK, rulings)
    return (effects if use.answer == "stack" else (max(effects, key=lambda e: e.amount),)), [use]


def penalty(sheet: TraumaSheet, kind: str, label: str, *, rulings: Mapping[str, str] | None = None,
            rules: Rules | None = None, extra_rulings=()) -> tuple[int, Step | None]:
    """The penalty of ``kind`` (``ranged-penalty``, ``sight-penalty``, ``balance-penalty``,
    ``leg-penalty``) the sheet's Traumas put on a roll: ``(modifier <= 0, modifier step or None)``;
    several stack per ``mastery.trauma-effects-stack``."""
    applied, uses = stacked(effects_of(sheet, kind, rules), rulings)
    if not applied:
        return 0, None
    total = sum(e.amount for e in applied)
    return -total, Step.of(StepKind.MODIFIER, label, f"-{total}", detail="; ".join(e.trauma for e in applied),
                           cites=[c for e in applied for c in e.cites], rulings=[*extra_rulings, *uses])


def act_trial(who, what: str, *, dice: Dice, precipitation: bool = False, rulings: Mapping[str, str] | None = None,
              rules: Rules | None = None) -> tuple[bool, list[Step]]:
    """The Endurance trials a combatant's Traumas call for when it spends AP to ``what`` ("attack" or
    "cast a spell"): Cracked Sternum, Skull Fracture, Broken Ribs, Internal Injury, and Painful Scar
    when ``precipitation`` (its row: "In rain, sleet, hail, or snow"). Each is the Endurance tier die
    (slot ``endurance``) against the row's DC (Straightforward, 4); several per
    ``mastery.trauma-effects-stack``.

    Args:
        who: a :class:`~ruleslawyer.rulesets.mastery.combatant.Combatant` (its sheet and Endurance tier).

    Returns:
        ``(the act takes effect, steps)``; on a failure "the AP is spent with no effect".
    """
    found = effects_of(who.sheet, "act-trial", rules)
    if precipitation:
        found += effects_of(who.sheet, "act-trial-precipitation", rules)
    applied, uses = stacked(found, rulings)
    steps: list[Step] = []
    for e in applied:
        trial = roll_trial(dice, who.endurance_tier, e.amount, "endurance",
                           label=f"{who.name}: Endurance trial to {what} ({e.trauma})", cites=e.cites,
                           rulings=rulings, field=f"{who.name}.endurance_tier", rules=rules)
        steps.append(trial.trace)
        if not trial.success:
            steps.append(Step.of(StepKind.RESULT, f"{who.name}'s AP is spent with no effect", "no effect",
                                 cites=e.cites, rulings=uses))
            return False, steps
    if uses and steps:
        steps.append(Step.of(StepKind.RULING, "Several Traumas call for the trial", len(applied), rulings=uses))
    return True, steps
