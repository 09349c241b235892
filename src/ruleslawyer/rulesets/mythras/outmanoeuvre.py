"""Outmanoeuvre (``mythras/combat/charge-evade-outmanoeuvre#3``): "Against multiple foes, group Opposed
Evade; spend 1 AP each. Failures cannot attack you this Round. Beat everyone and you may safely engage
one foe or leave the fight."

:func:`resolve_outmanoeuvre` rolls the mover's Evade once (slot ``evade``) and each foe's Evade (slot
``foes``, one d100 per foe in order); each foe the mover beats in the Opposed roll (ruling
``mythras.opposed-roll``) cannot attack the mover this Round. It is also one of the chapter's ways out
of being Engaged (``action-menu-essentials#4``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.dice import Dice, d100_label
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Step, StepKind, TracedResult, resolve_ruling

from . import ids, rulings as _r
from .levels import (DifficultyGrade, LevelOfSuccess, SkillRoll, _enum, adjust_over_100, check_skill,
                     level_of_success, rank, roll_skill)

__all__ = ["Evader", "OutmanoeuvreInput", "FoeOutcome", "OutmanoeuvreResult", "resolve_outmanoeuvre", "SLOTS"]

SLOTS = ("evade", "foes")
"""Scripted-dice slots: the mover's Evade, then one d100 per foe in input order."""


@dataclass(frozen=True)
class Evader:
    """One side of an Outmanoeuvre: who, their Evade %, the situational grade, Action Points left."""

    name: str
    skill: int = 50
    difficulty: DifficultyGrade = DifficultyGrade.STANDARD
    action_points: int = 2

    @classmethod
    def from_dict(cls, d: Any, field: str) -> Evader:
        """Build from JSON (``name``, ``skill``, ``difficulty``, ``action_points``), naming ``field`` on error."""
        keys = {"name", "skill", "difficulty", "action_points"}
        if not isinstance(d, Mapping):
            raise RulesInputError(field, f"must be an object with {', '.join(sorted(keys))}")
        for k in d:
            if k not in keys:
                raise RulesInputError(f"{field}.{k}", f"unknown field; allowed: {', '.join(sorted(keys))}")
        name = d.get("name", "")
        if not isinstance(name, str) or not name.strip():
            raise RulesInputError(f"{field}.name", "every side needs a name")
        ap = d.get("action_points", 2)
        if isinstance(ap, bool) or not isinstance(ap, int) or ap < 0:
            raise RulesInputError(f"{field}.action_points", f"must be a whole number from 0, got {ap!r}")
        return cls(name, check_skill(d.get("skill", 50), f"{field}.skill"),
                   _enum(DifficultyGrade, d.get("difficulty", "Standard"), f"{field}.difficulty"), ap)


@dataclass(frozen=True)
class OutmanoeuvreInput:
    """The mover and the foes they try to outmanoeuvre (at least one)."""

    mover: Evader
    foes: tuple[Evader, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OutmanoeuvreInput:
        """Build from JSON: ``{"mover": {...}, "foes": [{...}, ...]}`` (plus ``dice``, ``seed``, ``rulings``).

        Raises:
            RulesInputError: a bad field, named (``foes[1].skill``).
        """
        if not isinstance(data, Mapping):
            raise RulesInputError("input", "the input must be a JSON object with 'mover' and 'foes'")
        for k in data:
            if k not in ("mover", "foes", "dice", "seed", "rulings"):
                raise RulesInputError(k, "unknown field; allowed: mover, foes, dice, seed, rulings")
        foes = data.get("foes")
        if isinstance(foes, (str, bytes)) or not isinstance(foes, Sequence):
            raise RulesInputError("foes", "must be a list of foes")
        return cls(Evader.from_dict(data.get("mover"), "mover"),
                   tuple(Evader.from_dict(f, f"foes[{i}]") for i, f in enumerate(foes)))


@dataclass(frozen=True)
class FoeOutcome:
    """One foe's side of the group Opposed Evade.

    Attributes:
        name: the foe.
        roll: the foe's Evade roll, or None when they had no Action Point to oppose with.
        level: the foe's level of success (None: no roll).
        mover_level: the mover's level against this foe (skills over 100% adjust per pair).
        beaten: the mover won: this foe cannot attack the mover this Round.
    """

    name: str
    roll: SkillRoll | None
    level: LevelOfSuccess | None
    mover_level: LevelOfSuccess | None
    beaten: bool


@dataclass(frozen=True)
class OutmanoeuvreResult(TracedResult):
    """The outcome of an Outmanoeuvre.

    Attributes:
        mover: the mover's Evade roll (None when they had no Action Point).
        foes: each foe's outcome, in input order.
        cannot_attack: the foes who cannot attack the mover this Round.
        beat_everyone: the mover may safely engage one foe or leave the fight.
        seed: the dice seed (None when scripted only).
        trace: the explanation.
    """

    mover: SkillRoll | None
    foes: tuple[FoeOutcome, ...]
    cannot_attack: tuple[str, ...]
    beat_everyone: bool
    seed: int | None
    trace: Step


def _opposed(mover: tuple[LevelOfSuccess, int], foe: tuple[LevelOfSuccess, int], overrides: Mapping[str, str],
             rules: Rules) -> tuple[str | None, Step]:
    """Who wins one Opposed roll: the higher level, then ruling ``mythras.opposed-roll``."""
    (ml, mf), (fl, ff) = mover, foe
    rm, rf = rank(ml, rules=rules), rank(fl, rules=rules)
    uses = []
    if rm != rf:
        winner = "mover" if rm > rf else "foe"
    else:
        use = resolve_ruling(_r.OPPOSED_ROLL.id, overrides)
        uses.append(use)
        by_roll = use.answer == "higher-roll" or (use.answer == "higher-success-roll" and ml.succeeded)
        winner = ("mover" if mf > ff else "foe" if ff > mf else None) if by_roll else None
    detail = (f"mover {ml.value} ({d100_label(mf)}) vs foe {fl.value} ({d100_label(ff)}): "
              + (f"the {winner} wins" if winner else "nobody wins"))
    return winner, Step.of(StepKind.COMPARE, "Opposed Evade", value=winner, detail=detail,
                           cites=[ids.OUTMANOEUVRE], rulings=uses)


def _unopposed(foe: Evader, roll: SkillRoll | None, why: str, mover: SkillRoll, overrides: Mapping[str, str]
               ) -> tuple[FoeOutcome, Step]:
    """A foe who cannot oppose the Outmanoeuvre (ruling ``mythras.outmanoeuvre-unopposed``)."""
    use = resolve_ruling(_r.OUTMANOEUVRE_UNOPPOSED.id, overrides)
    beaten = use.answer == "counts-as-failure"
    return FoeOutcome(foe.name, roll, None, mover.level, beaten), Step.of(
        StepKind.RULING, f"{foe.name}: cannot oppose ({why})", value=beaten,
        detail="beaten without a roll" if beaten else "not beaten: the move cannot get past them this Round",
        cites=[ids.OUTMANOEUVRE, ids.PROACTIVE_REACTIVE], rulings=[use],
        children=[roll.trace] if roll is not None else [])


def _against(foe: Evader, mover: SkillRoll, dice: Dice, overrides: Mapping[str, str], rules: Rules,
             i: int) -> tuple[FoeOutcome, Step]:
    """One foe's Evade against the mover's roll (spending 1 AP), and the step."""
    if foe.action_points < 1:
        return _unopposed(foe, None, "no Action Point to oppose with", mover, overrides)
    roll = roll_skill(foe.skill, grade=foe.difficulty, dice=dice, slot="foes", rulings=overrides,
                      label=f"Evade ({foe.name})", field=f"foes[{i}].skill", rules=rules)
    if roll.level is None:
        return _unopposed(foe, roll, "an Evade that is Hopeless", mover, overrides)
    skills, over = adjust_over_100({"mover": mover.effective_skill, "foe": roll.effective_skill}, overrides)
    m_level = level_of_success(mover.roll, skills["mover"], rules=rules)[0]
    f_level = level_of_success(roll.roll, skills["foe"], rules=rules)[0]
    winner, cmp = _opposed((m_level, mover.roll), (f_level, roll.roll), overrides, rules)
    children = [roll.trace, *([over] if over is not None else []), cmp]
    step = Step.of(StepKind.RULE, f"{foe.name}: " + ("beaten — cannot attack the mover this Round"
                                                     if winner == "mover" else "not beaten"),
                   value=winner == "mover", detail=f"{foe.name} spends 1 AP to oppose", cites=[ids.OUTMANOEUVRE],
                   children=children)
    return FoeOutcome(foe.name, roll, f_level, m_level, winner == "mover"), step


def resolve_outmanoeuvre(inp: OutmanoeuvreInput, *, dice: Dice | None = None, rng=None, seed: int | None = None,
                         script: Mapping[str, Sequence[int]] | None = None, rulings: Mapping[str, str] | None = None,
                         rules: Rules | None = None) -> OutmanoeuvreResult:
    """Resolve an Outmanoeuvre against one or more foes (``charge-evade-outmanoeuvre#3``).

    Example: Evade 60 rolls 25 (Success) against foes rolling 70 at 50% (Failure) and 20 at 45%
    (Success, with the lower roll): both beaten, so neither can attack and the mover may leave the fight.

    Raises:
        RulesInputError: no foes, or a bad field (naming it, e.g. ``foes[0].skill``).
    """
    rules = resolve_rules(rules)
    overrides = dict(rulings or {})
    check_rulings(overrides, "mythras")
    if not inp.foes:
        raise RulesInputError("foes", "an Outmanoeuvre is made against one or more foes")
    dice = dice or Dice(rng=rng, seed=seed, script=script)
    m = inp.mover
    if m.action_points < 1:
        step = Step.of(StepKind.RULE, f"{m.name} has no Action Point left: no Outmanoeuvre", value=0,
                       cites=[ids.OUTMANOEUVRE, ids.PROACTIVE_REACTIVE])
        return OutmanoeuvreResult(None, (), (), False, dice.seed, Step.of(
            StepKind.RESULT, "Mythras Outmanoeuvre: not attempted", children=[step]))
    mover = roll_skill(m.skill, grade=m.difficulty, dice=dice, slot="evade", rulings=overrides,
                       label=f"Evade ({m.name})", field="mover.skill", rules=rules)
    if mover.level is None:
        return OutmanoeuvreResult(mover, (), (), False, dice.seed, Step.of(
            StepKind.RESULT, "Mythras Outmanoeuvre: not attempted", children=[mover.trace]))
    outcomes, steps = [], [Step.of(StepKind.RULE, f"{m.name} spends 1 AP and rolls Evade once",
                                   value=mover.level.value, cites=[ids.OUTMANOEUVRE], children=[mover.trace])]
    for i, foe in enumerate(inp.foes):
        outcome, step = _against(foe, mover, dice, overrides, rules, i)
        outcomes.append(outcome)
        steps.append(step)
    beaten = tuple(o.name for o in outcomes if o.beaten)
    everyone = len(beaten) == len(outcomes)
    steps.append(Step.of(StepKind.RESULT, "Beat everyone: may safely engage one foe or leave the fight"
                         if everyone else f"Cannot attack {m.name} this Round: {', '.join(beaten) or 'nobody'}",
                         value=list(beaten), cites=[ids.OUTMANOEUVRE] + ([ids.ENGAGED] if everyone else [])))
    trace = Step.of(StepKind.RESULT, "Mythras Outmanoeuvre", value=list(beaten),
                    detail=f"{m.name} beats {len(beaten)} of {len(outcomes)}", children=steps)
    return OutmanoeuvreResult(mover, tuple(outcomes), beaten, everyone, dice.seed, trace)
