"""Wounds, reaching 0 health, fighting on, going down, the dying timer and Triage.

Rules: ``mastery/combat/death/*`` (reaching-0-health#1-4, fighting-on#1-4, going-down#1-3,
triage#1), ``mastery/combat/wounds-injuries-and-trauma/*`` and the trauma settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult

from . import ids
from . import rulings as R
from .combatant import Combatant, State
from .damage import DamageOutcome
from .tiers import roll_trial
from .trauma import Trauma, TraumaEvent, TraumaSetting, roll_trauma, trauma_follows

__all__ = ["Aftermath", "health_damage_aftermath", "DyingResult", "advance_dying", "TriageResult", "triage"]


@dataclass(frozen=True)
class Aftermath:
    """What health damage did to the target: new state, Traumas, Endurance trials, spell at risk."""

    target: Combatant
    reached_zero: bool
    injury: bool
    traumas: tuple[Trauma, ...]
    spell: str
    step: Step


def _trauma(target: Combatant, dice: Dice, rulings, label: str, cites, rules: Rules) -> tuple[Combatant, Trauma, Step]:
    t = roll_trauma(dice=dice, sheet=target.sheet, rulings=rulings, rules=rules)
    children = [t.trace]
    new = target.with_(sheet=t.sheet)
    if t.sheet.ap_per_round < target.sheet.ap_per_round and target.ap > t.sheet.ap_per_round:
        use = R.ruling_use(R.ONE_AP_TRAUMA_TIMING, rulings)
        if use.answer == "at-once":
            new = new.with_(ap=t.sheet.ap_per_round)
        children.append(Step.of(StepKind.RULING, "1 AP per round from now", new.ap, detail=use.answer,
                                cites=[t.unit_id], rulings=[use]))
    step = Step.of(StepKind.RESULT, label, t.trace.label.removeprefix("Trauma: "), cites=cites, children=children)
    return new, t, step


def health_damage_aftermath(target: Combatant, damage: DamageOutcome, *, exploded: bool,
                            setting: TraumaSetting, fight_on: bool, dice: Dice,
                            rulings: Mapping[str, str] | None, rules: Rules | None = None) -> Aftermath:
    """Resolve what follows health damage (already applied in ``damage``; ``target`` is *before* it).

    Covers: a wound; a spell being cast at risk (``mastery.casting-health-damage``); reaching 0
    (Injury, dying timer = Endurance tier rounds, Endurance trial against the health damage; success
    -> fight on if ``fight_on``, failure -> unconscious; Brutal: a Trauma too); health damage at 0
    while fighting on (a Trauma, then an Endurance trial against the damage; failure -> unconscious);
    Brutal natural minimum on those trials (a Trauma); Deadly exploding hit (Endurance trial,
    Straightforward 4, or a Trauma). Several triggers per hit follow ``mastery.trauma-per-hit``.
    """
    rules = resolve_rules(rules)
    steps: list[Step] = []
    traumas: list[Trauma] = []
    hp = damage.to_health
    per_hit = None
    provisional = State.UNCONSCIOUS if damage.health == 0 and target.state is State.STANDING else target.state
    t = target.with_(health=damage.health, durability=damage.durability, state=provisional)
    spell = ""
    if hp <= 0:
        return Aftermath(t, False, False, (), spell, Step.of(StepKind.INFO, "No health damage", 0,
                                                           cites=[ids.HEALTH]))
    steps.append(Step.of(StepKind.RULE, "Wound", hp, detail="damage to health is a wound", cites=[ids.WOUND]))
    if target.casting:
        use = R.ruling_use(R.CASTING_HEALTH_DAMAGE, rulings)
        spell = "lost" if use.answer == "lost" else "at risk"
        steps.append(Step.of(StepKind.RULING, f"Spell being cast: {spell}", spell, cites=[ids.CASTING_INTERRUPTED],
                             rulings=[use]))
        if spell == "lost":
            t = t.with_(casting=False)

    def allow_more() -> bool:
        nonlocal per_hit
        if not traumas:
            return True
        per_hit = R.ruling_use(R.TRAUMA_PER_HIT, rulings)
        return per_hit.answer == "each-trigger"

    def endurance(dc: int, label: str, cites) -> tuple[bool, int]:
        trial = roll_trial(dice, t.endurance_tier, dc, "endurance", label=label, cites=cites, rulings=rulings,
                           field=f"{t.name}.endurance_tier", rules=rules)
        steps.append(trial.trace)
        return trial.success, trial.natural

    def natural_minimum(natural: int) -> None:
        nonlocal t
        if natural != 1:
            return
        check = trauma_follows(TraumaEvent.NATURAL_MINIMUM_RESIST, setting, rules=rules)
        use = R.ruling_use(R.RESIST_DAMAGE_TRIAL, rulings)
        steps.append(Step.of(StepKind.RULING, "Natural minimum on a trial to resist damage", check.outcome,
                             rulings=[use], children=[check.trace]))
        if check.trauma and allow_more():
            t, tr, st = _trauma(t, dice, rulings, "Trauma (natural minimum)", [ids.SETTING_BRUTAL], rules)
            traumas.append(tr)
            steps.append(st)

    reached_zero = injury = False
    if target.health == 0 and target.state is State.FIGHTING_ON:
        steps.append(Step.of(StepKind.RULE, "Health damage while at 0 health and fighting on", hp,
                             cites=[ids.FIGHTING_ON, ids.FIGHTING_ON_TRAUMA, ids.TRAUMAS]))
        check = trauma_follows(TraumaEvent.FIGHTING_ON_HEALTH_DAMAGE, setting, rules=rules)
        steps.append(check.trace)
        t, tr, st = _trauma(t, dice, rulings, "Trauma (fighting on)", [ids.FIGHTING_ON_TRAUMA], rules)
        traumas.append(tr)
        steps.append(st)
        ok, nat = endurance(hp, f"Endurance trial against the health damage taken ({hp})", [ids.FIGHTING_ON_ENDURANCE])
        if not ok:
            t = t.with_(state=State.UNCONSCIOUS)
            steps.append(Step.of(StepKind.RESULT, "Falls unconscious", "unconscious",
                                 cites=[ids.FIGHTING_ON_ENDURANCE, ids.GOING_DOWN_UNCONSCIOUS]))
        steps.append(Step.of(StepKind.INFO, "Dying timer continues", t.dying_rounds, cites=[ids.FIGHTING_ON_TIMER]))
        natural_minimum(nat)
    elif target.health > 0 and damage.health == 0:
        reached_zero = injury = True
        steps.append(Step.of(StepKind.RULE, "Reaches 0 health: Injury",
                             cites=[ids.REACHING_ZERO, ids.ZERO_INJURY, ids.INJURY]))
        t = t.with_(dying_rounds=t.endurance_tier, stabilized=False)
        steps.append(Step.of(StepKind.RULE, "Dying timer begins", t.endurance_tier,
                             detail=f"rounds equal to Endurance tier {t.endurance_tier}", cites=[ids.DYING_TIMER]))
        check = trauma_follows(TraumaEvent.REACHED_ZERO, setting, rules=rules)
        steps.append(check.trace)
        if check.trauma:
            t, tr, st = _trauma(t, dice, rulings, "Trauma (reaching 0 health)", [ids.SETTING_BRUTAL], rules)
            traumas.append(tr)
            steps.append(st)
        dc = hp
        dc_rulings = []
        if damage.to_health > damage.health_lost:
            use = R.ruling_use(R.ZERO_HEALTH_DC, rulings)
            dc_rulings.append(use)
            if use.answer == "health-lost":
                dc = damage.health_lost
        steps.append(Step.of(StepKind.RULE, "Endurance trial DC: the health damage that reduced you to 0", dc,
                             cites=[ids.ZERO_ENDURANCE], rulings=dc_rulings))
        ok, nat = endurance(dc, f"Endurance trial against {dc}", [ids.ZERO_ENDURANCE])
        if ok and fight_on:
            t = t.with_(state=State.FIGHTING_ON)
            steps.append(Step.of(StepKind.RESULT, "Remains conscious and fights on", "fighting on",
                                 cites=[ids.ZERO_ENDURANCE, ids.FIGHTING_ON]))
        else:
            t = t.with_(state=State.UNCONSCIOUS)
            steps.append(Step.of(StepKind.RESULT, "Goes down: unconscious" + (" (chose to)" if ok else ""),
                                 cites=[ids.GOING_DOWN, ids.GOING_DOWN_UNCONSCIOUS,
                                                       ids.GOING_DOWN_TIMER]))
        natural_minimum(nat)
    if exploded:
        check = trauma_follows(TraumaEvent.EXPLODED_HIT_HEALTH_DAMAGE, setting, rules=rules)
        steps.append(check.trace)
        if check.endurance_dc is not None and allow_more():
            ok, _nat = endurance(check.endurance_dc, f"Endurance trial (Straightforward, {check.endurance_dc})",
                                 [ids.SETTING_DEADLY])
            if not ok:
                t, tr, st = _trauma(t, dice, rulings, "Trauma (Deadly: exploding hit)", [ids.SETTING_DEADLY], rules)
                traumas.append(tr)
                steps.append(st)
    step = Step.of(StepKind.RESULT, "After health damage", t.state.value,
                   detail=f"health {t.health}; {len(traumas)} Trauma(s)",
                   rulings=[per_hit] if per_hit else [], children=steps)
    return Aftermath(t, reached_zero, injury, tuple(traumas), spell, step)


@dataclass(frozen=True)
class DyingResult(TracedResult):
    """The dying timer after ``rounds`` more rounds: rounds left and whether the creature died."""

    target: Combatant
    rounds_left: int | None
    died: bool
    trace: Step


def advance_dying(target: Combatant, rounds: int = 1) -> DyingResult:
    """Run the dying timer ``rounds`` rounds (``.../reaching-0-health#3``, ``fighting-on#4``,
    ``going-down#3``, stopped by Triage ``triage#1``).

    Raises:
        RulesInputError: rounds < 0 (field ``rounds``).
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise RulesInputError("rounds", f"must be a whole number >= 0, got {rounds!r}")
    if target.dying_rounds is None or target.stabilized or target.state is State.DEAD:
        why = "stabilized: the timer is stopped" if target.stabilized else "not dying"
        return DyingResult(target, target.dying_rounds, target.state is State.DEAD,
                           Step.of(StepKind.RESULT, f"Dying timer: {why}", target.dying_rounds,
                                   cites=[ids.TRIAGE if target.stabilized else ids.DYING_TIMER]))
    left = target.dying_rounds - rounds
    died = left <= 0
    cite = ids.FIGHTING_ON_TIMER if target.state is State.FIGHTING_ON else ids.GOING_DOWN_TIMER
    new = target.with_(dying_rounds=max(left, 0), state=State.DEAD if died else target.state)
    return DyingResult(new, max(left, 0), died, Step.of(
        StepKind.RESULT, "Dies: the dying timer expired" if died else f"Dying: {left} round(s) left",
        max(left, 0), detail=f"{target.dying_rounds} - {rounds}", cites=[ids.DYING_TIMER, cite]))


@dataclass(frozen=True)
class TriageResult(TracedResult):
    """Triage: whether it stabilized the patient, the medic's AP spent and left."""

    patient: Combatant
    stabilized: bool
    ap_spent: int
    ap_left: int
    trace: Step


def triage(patient: Combatant, *, medic_ap: int = 2, adjacent: bool = True,
           rules: Rules | None = None) -> TriageResult:
    """Stabilize a dying creature: 2 AP, adjacent, no trial; stops the dying timer; the creature
    stays unconscious at 0 health (``mastery/combat/death/triage#1``).

    Raises:
        RulesInputError: medic_ap outside 0..2.
    """
    if isinstance(medic_ap, bool) or not isinstance(medic_ap, int) or not 0 <= medic_ap <= 2:
        raise RulesInputError("medic_ap", f"must be 0, 1 or 2, got {medic_ap!r}")
    cite = Citation(ids.TRIAGE)
    if patient.dying_rounds is None or patient.stabilized or patient.state is State.DEAD:
        why = "already stabilized" if patient.stabilized else ("dead" if patient.state is State.DEAD else "not dying")
        return TriageResult(patient, False, 0, medic_ap, Step.of(StepKind.RESULT, f"No Triage: patient {why}",
                                                                 False, cites=[cite]))
    if not adjacent:
        return TriageResult(patient, False, 0, medic_ap, Step.of(StepKind.RESULT, "No Triage: not adjacent",
                                                                 False, cites=[cite]))
    if medic_ap < 2:
        return TriageResult(patient, False, 0, medic_ap, Step.of(
            StepKind.RESULT, f"No Triage: needs 2 AP, {medic_ap} left", False, cites=[cite, ids.AP_PER_ROUND]))
    new = patient.with_(stabilized=True, state=State.UNCONSCIOUS if patient.health == 0 else patient.state)
    return TriageResult(new, True, 2, medic_ap - 2, Step.of(
        StepKind.RESULT, "Stabilized: the dying timer stops; unconscious at 0 health", True,
        detail="2 AP, no trial", cites=[cite]))
