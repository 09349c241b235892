"""Wounds, reaching 0 health, fighting on, going down, the dying timer and Triage.

Rules: ``mastery/combat/death/*`` (reaching-0-health#1-4, fighting-on#1-4, going-down#1-3,
triage#1), ``mastery/combat/wounds-injuries-and-trauma/*`` and the trauma settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, TracedResult

from . import ids
from . import rulings as R
from .combatant import Combatant, State
from .actions import action_cost
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


@dataclass
class _Hit:
    """What one hit's health damage carries from stage to stage (one per call, never shared)."""

    before: Combatant
    target: Combatant
    damage: DamageOutcome
    exploded: bool
    setting: TraumaSetting
    fight_on: bool
    dice: Dice
    rulings: Mapping[str, str] | None
    rules: Rules
    traumas: list[Trauma] = field(default_factory=list)
    spell: str = ""
    per_hit: RulingUse | None = None
    reached_zero: bool = False

    @property
    def hp(self) -> int:
        """The hit's health damage (including any beyond 0)."""
        return self.damage.to_health


def _allow_more(h: _Hit) -> bool:
    """Another Trauma from this hit? The first always; later ones per ``mastery.trauma-per-hit``."""
    if not h.traumas:
        return True
    h.per_hit = R.ruling_use(R.TRAUMA_PER_HIT, h.rulings)
    return h.per_hit.answer == "each-trigger"


def suffer_trauma(h: _Hit, label: str, cites) -> list[Step]:
    """Roll a Trauma onto the target's sheet (``.../trauma-table#6``); a Trauma that says "You have 1 AP
    per round" cuts this round's AP per ``mastery.one-ap-trauma-timing``. While the target fights on,
    the Trauma is followed by an Endurance trial against the health damage taken
    (:func:`_trial_after_trauma`, ``fighting-on#3``)."""
    t = roll_trauma(dice=h.dice, sheet=h.target.sheet, rulings=h.rulings, rules=h.rules)
    h.traumas.append(t)
    children = [t.trace]
    new = h.target.with_(sheet=t.sheet)
    if t.sheet.ap_per_round < h.target.sheet.ap_per_round and h.target.ap > t.sheet.ap_per_round:
        use = R.ruling_use(R.ONE_AP_TRAUMA_TIMING, h.rulings)
        if use.answer == "at-once":
            new = new.with_(ap=t.sheet.ap_per_round)
        children.append(Step.of(StepKind.RULING, "1 AP per round: AP left this round", new.ap, detail=use.answer,
                                cites=[t.unit_id], rulings=[use]))
    h.target = new
    steps = [Step.of(StepKind.RESULT, label, t.trace.label.removeprefix("Trauma: "), cites=cites, children=children)]
    if h.target.state is State.FIGHTING_ON:
        steps += _trial_after_trauma(h, t)
    return steps


def _trial_after_trauma(h: _Hit, t: Trauma) -> list[Step]:
    """"Each time you suffer a Trauma, roll an Endurance trial against the health damage taken. On a
    failure, you fall unconscious." (``fighting-on#3``). A Close Call is no Trauma: whether it still
    calls for the trial is ``mastery.close-call-trial``. A natural minimum on the trial is Brutal's
    Trauma (:func:`_natural_minimum`)."""
    lead: list[Step] = []
    if t.close_call:
        use = R.ruling_use(R.CLOSE_CALL_TRIAL, h.rulings)
        if use.answer == "no-trial":
            return [Step.of(StepKind.RULING, "Close Call: no Trauma suffered, so no Endurance trial", "no trial",
                            cites=[t.unit_id, ids.FIGHTING_ON_ENDURANCE], rulings=[use])]
        lead.append(Step.of(StepKind.RULING, "Close Call: the Endurance trial is rolled as for a Trauma", "trial",
                            cites=[t.unit_id, ids.FIGHTING_ON_ENDURANCE], rulings=[use]))
    ok, nat, trial = _endurance(h, h.hp, f"Endurance trial against the health damage taken ({h.hp})",
                                [ids.FIGHTING_ON_ENDURANCE])
    steps = lead + [trial]
    if not ok:
        h.target = h.target.with_(state=State.UNCONSCIOUS)
        steps.append(Step.of(StepKind.RESULT, "Falls unconscious", "unconscious",
                             cites=[ids.FIGHTING_ON_ENDURANCE, ids.GOING_DOWN_UNCONSCIOUS]))
    return steps + _natural_minimum(h, nat)


def _endurance(h: _Hit, dc: int, label: str, cites) -> tuple[bool, int, Step]:
    """An Endurance trial of the target against ``dc``: (success, natural face, step)."""
    trial = roll_trial(h.dice, h.target.endurance_tier, dc, "endurance", label=label, cites=cites, rulings=h.rulings,
                       field=f"{h.target.name}.endurance_tier", rules=h.rules)
    return trial.success, trial.natural, trial.trace


MAX_TRAUMAS_PER_HIT = 100
"""Most Traumas one hit may cause (an input bound of the kit, not a rule): under Brutal a natural
minimum on the trial after a Trauma is another Trauma, so dice that keep rolling 1 against a DC of 1
would never stop."""


def _natural_minimum(h: _Hit, natural: int) -> list[Step]:
    """Brutal and Deadly: a natural minimum on a trial to resist damage (``mastery.resist-damage-trial``)
    is a Trauma (``.../trauma-table#3``). Under Realistic it is not in play and adds no step."""
    if natural != 1:
        return []
    check = trauma_follows(TraumaEvent.NATURAL_MINIMUM_RESIST, h.setting, rules=h.rules)
    if not check.trauma:
        return []
    use = R.ruling_use(R.RESIST_DAMAGE_TRIAL, h.rulings)
    steps = [Step.of(StepKind.RULING, "Natural minimum on a trial to resist damage", check.outcome,
                     rulings=[use], children=[check.trace])]
    if len(h.traumas) >= MAX_TRAUMAS_PER_HIT:
        return steps + [Step.of(StepKind.INFO, f"No more Traumas: the kit stops at {MAX_TRAUMAS_PER_HIT} for one hit",
                                MAX_TRAUMAS_PER_HIT)]
    if _allow_more(h):
        steps += suffer_trauma(h, "Trauma (natural minimum)", [ids.SETTING_BRUTAL])
    return steps


def wound(h: _Hit) -> list[Step]:
    """Health damage is a wound (``.../wounds#1``); a spell being cast is at risk
    (``mastery.casting-health-damage``)."""
    steps = [Step.of(StepKind.RULE, "Wound", h.hp, detail="damage to health is a wound", cites=[ids.WOUND])]
    if h.before.casting:
        use = R.ruling_use(R.CASTING_HEALTH_DAMAGE, h.rulings)
        h.spell = "lost" if use.answer == "lost" else "at risk"
        steps.append(Step.of(StepKind.RULING, "Spell being cast", h.spell,
                             cites=[ids.CASTING_INTERRUPTED], rulings=[use]))
        if h.spell == "lost":
            h.target = h.target.with_(casting=False)
    return steps


def fighting_on_damage(h: _Hit) -> list[Step]:
    """Health damage at 0 health while fighting on: a Trauma (``fighting-on#2``), then, as for every
    Trauma while fighting on, an Endurance trial against the health damage taken
    (``fighting-on#3``; failure: unconscious). The dying timer runs on (``fighting-on#4``)."""
    if not (h.before.health == 0 and h.before.state is State.FIGHTING_ON):
        return []
    check = trauma_follows(TraumaEvent.FIGHTING_ON_HEALTH_DAMAGE, h.setting, rules=h.rules)
    steps = [Step.of(StepKind.RULE, "Health damage while at 0 health and fighting on", h.hp,
                     cites=[ids.FIGHTING_ON, ids.FIGHTING_ON_TRAUMA, ids.TRAUMAS]), check.trace]
    steps += suffer_trauma(h, "Trauma (fighting on)", [ids.FIGHTING_ON_TRAUMA])
    still = h.target.state is State.FIGHTING_ON
    steps.append(Step.of(StepKind.INFO, "Dying timer continues", h.target.dying_rounds,
                         cites=[ids.FIGHTING_ON_TIMER if still else ids.GOING_DOWN_TIMER]))
    return steps


def _zero_health_dc(h: _Hit) -> tuple[int, Step]:
    """The DC of the Endurance trial on reaching 0: the health damage that reduced you to 0
    (``reaching-0-health#4``; damage beyond 0 per ``mastery.zero-health-dc``)."""
    dc, dc_rulings = h.hp, []
    if h.damage.to_health > h.damage.health_lost:
        use = R.ruling_use(R.ZERO_HEALTH_DC, h.rulings)
        dc_rulings.append(use)
        if use.answer == "health-lost":
            dc = h.damage.health_lost
    return dc, Step.of(StepKind.RULE, "Endurance trial DC: the health damage that reduced you to 0", dc,
                       cites=[ids.ZERO_ENDURANCE], rulings=dc_rulings)


def reaching_zero(h: _Hit) -> list[Step]:
    """Reaching 0 health: an Injury, the dying timer (Endurance tier rounds), Brutal's Trauma
    (``.../trauma-table#3``), and the Endurance trial: success -> fight on (if chosen), failure ->
    unconscious (``reaching-0-health#1-4``)."""
    if not (h.before.health > 0 and h.damage.health == 0):
        return []
    h.reached_zero = True
    h.target = h.target.with_(dying_rounds=h.target.endurance_tier, stabilized=False)
    steps = [Step.of(StepKind.RULE, "Reaches 0 health: Injury", cites=[ids.REACHING_ZERO, ids.ZERO_INJURY, ids.INJURY]),
             Step.of(StepKind.RULE, "Dying timer begins", h.target.endurance_tier,
                     detail=f"rounds equal to Endurance tier {h.target.endurance_tier}", cites=[ids.DYING_TIMER])]
    check = trauma_follows(TraumaEvent.REACHED_ZERO, h.setting, rules=h.rules)
    if check.trauma:  # Brutal and Deadly; under Realistic not in play
        steps += [check.trace] + suffer_trauma(h, "Trauma (reaching 0 health)", [ids.SETTING_BRUTAL])
    dc, dc_step = _zero_health_dc(h)
    ok, nat, trial = _endurance(h, dc, f"Endurance trial against {dc}", [ids.ZERO_ENDURANCE])
    steps += [dc_step, trial]
    if ok and h.fight_on:
        h.target = h.target.with_(state=State.FIGHTING_ON)
        steps.append(Step.of(StepKind.RESULT, "Remains conscious and fights on", "fighting on",
                             cites=[ids.ZERO_ENDURANCE, ids.FIGHTING_ON]))
    else:
        h.target = h.target.with_(state=State.UNCONSCIOUS)
        steps.append(Step.of(StepKind.RESULT, "Goes down: unconscious" + (" (chose to)" if ok else ""),
                             cites=[ids.GOING_DOWN, ids.GOING_DOWN_UNCONSCIOUS, ids.GOING_DOWN_TIMER]))
    return steps + _natural_minimum(h, nat)


def deadly_exploding_hit(h: _Hit) -> list[Step]:
    """Deadly: health damage from a hit whose dice exploded calls for an Endurance trial
    (Straightforward, 4) or a Trauma (``.../trauma-table#4``); under the other settings it is not in
    play and adds no step."""
    if not h.exploded:
        return []
    check = trauma_follows(TraumaEvent.EXPLODED_HIT_HEALTH_DAMAGE, h.setting, rules=h.rules)
    if check.endurance_dc is None:  # not Deadly: not in play
        return []
    steps = [check.trace]
    if _allow_more(h):
        ok, _nat, trial = _endurance(h, check.endurance_dc, f"Endurance trial (Straightforward, {check.endurance_dc})",
                                     [ids.SETTING_DEADLY])
        steps.append(trial)
        if not ok:
            steps += suffer_trauma(h, "Trauma (Deadly: exploding hit)", [ids.SETTING_DEADLY])
    return steps


STAGES = (wound, fighting_on_damage, reaching_zero, deadly_exploding_hit)
"""What follows health damage, in order: the wound, health damage while fighting on, reaching 0
health, Deadly's exploding hit."""


def health_damage_aftermath(target: Combatant, damage: DamageOutcome, *, exploded: bool,
                            setting: TraumaSetting, fight_on: bool, dice: Dice,
                            rulings: Mapping[str, str] | None, rules: Rules | None = None) -> Aftermath:
    """Resolve what follows health damage (already applied in ``damage``; ``target`` is *before* it).

    Stages (:data:`STAGES`), in order: :func:`wound` (a wound; a spell being cast at risk,
    ``mastery.casting-health-damage``), :func:`fighting_on_damage` (health damage at 0 while
    fighting on: a Trauma), :func:`reaching_zero` (Injury, dying timer = Endurance tier rounds,
    Brutal's Trauma, the Endurance trial against the health damage; success -> fight on if
    ``fight_on``, failure -> unconscious), :func:`deadly_exploding_hit` (Endurance trial,
    Straightforward 4, or a Trauma). Every Trauma goes through :func:`suffer_trauma`: while the
    target fights on, each is followed by an Endurance trial against the health damage taken
    (failure -> unconscious; a Close Call per ``mastery.close-call-trial``). A natural minimum on a
    trial to resist damage is a Trauma under Brutal. Several triggers per hit follow
    ``mastery.trauma-per-hit``.

    Returns:
        An :class:`Aftermath`: the target after it, whether it reached 0 (with an Injury), the
        Traumas, the spell (``""``, ``"lost"``, ``"at risk"``) and the cited step.
    """
    provisional = State.UNCONSCIOUS if damage.health == 0 and target.state is State.STANDING else target.state
    h = _Hit(target, target.with_(health=damage.health, durability=damage.durability, state=provisional), damage,
             exploded, setting, fight_on, dice, rulings, resolve_rules(rules))
    if h.hp <= 0:
        return Aftermath(h.target, False, False, (), "", Step.of(StepKind.INFO, "No health damage", 0,
                                                                 cites=[ids.HEALTH]))
    steps: list[Step] = []
    for stage in STAGES:
        steps += stage(h)
    step = Step.of(StepKind.RESULT, "After health damage", h.target.state.value,
                   detail=f"health {h.target.health}; {len(h.traumas)} Trauma(s)",
                   rulings=[h.per_hit] if h.per_hit else [], children=steps)
    return Aftermath(h.target, h.reached_zero, h.reached_zero, tuple(h.traumas), h.spell, step)


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
        StepKind.RESULT, "Dies: the dying timer expired" if died else "Dying timer: rounds left",
        max(left, 0), detail=f"{target.dying_rounds} - {rounds}", cites=[ids.DYING_TIMER, cite]))


@dataclass(frozen=True)
class TriageResult(TracedResult):
    """Triage: whether it stabilized the patient, the medic's AP spent and left this round, and the
    AP still to spend on it next round (0 when done or not begun)."""

    patient: Combatant
    stabilized: bool
    ap_spent: int
    ap_left: int
    ap_to_go: int
    trace: Step


def _no_triage(patient: Combatant, medic_ap: int, why: str, cites, rulings=()) -> TriageResult:
    return TriageResult(patient, False, 0, medic_ap, 0, Step.of(StepKind.RESULT, f"No Triage: {why}", False,
                                                                cites=cites, rulings=rulings))


def _stabilized(patient: Combatant, rulings) -> tuple[Combatant, str, list]:
    """The patient stabilized: the timer stops; unconscious at 0 health (``triage#1``), or, fighting
    on, per ``mastery.triage-fighting-on``."""
    if patient.state is not State.FIGHTING_ON:
        state = State.UNCONSCIOUS if patient.health == 0 else patient.state
        return patient.with_(stabilized=True, state=state), f"{state.value} at {patient.health} health", []
    use = R.ruling_use(R.TRIAGE_FIGHTING_ON, rulings)
    state = State.UNCONSCIOUS if use.answer == "unconscious" else State.FIGHTING_ON
    how = "unconscious at 0 health" if state is State.UNCONSCIOUS else "still fighting on at 0 health"
    return patient.with_(stabilized=True, state=state), how, [use]


def triage(patient: Combatant, *, medic_ap: int = 2, adjacent: bool = True, ap_spent_before: int = 0,
           rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> TriageResult:
    """Stabilize a dying creature: an adjacent character spends 2 AP (the Triage row of the action
    costs), no trial; the dying timer stops and the creature remains unconscious at 0 health
    (``mastery/combat/death/triage#1``). A creature fighting on: ``mastery.triage-fighting-on``.
    With fewer AP left than Triage needs, the medic spends what is left now and the rest next round
    (``mastery.triage-across-rounds``; ``ap_to_go`` says how many), or cannot start.

    Args:
        patient: the dying creature; medic_ap: the medic's AP left this round (0..2); adjacent:
            the medic is adjacent; ap_spent_before: AP already spent on this Triage in earlier rounds.

    Raises:
        RulesInputError: medic_ap outside 0..2; ap_spent_before outside 0..(Triage's AP - 1), or not 0
            under the 'one-round' answer.
    """
    rulings = R.check(rulings)
    cost = action_cost("Triage", rules=resolve_rules(rules))
    if isinstance(medic_ap, bool) or not isinstance(medic_ap, int) or not 0 <= medic_ap <= 2:
        raise RulesInputError("medic_ap", f"must be 0, 1 or 2, got {medic_ap!r}")
    across = R.ruling_use(R.TRIAGE_ACROSS_ROUNDS, rulings)
    most = cost.ap - 1 if across.answer == "across-rounds" else 0
    if isinstance(ap_spent_before, bool) or not isinstance(ap_spent_before, int) or not 0 <= ap_spent_before <= most:
        raise RulesInputError("ap_spent_before", f"must be a whole number from 0 to {most} (Triage costs {cost.ap} AP; "
                                                 f"{across.ruling_id}={across.answer}), got {ap_spent_before!r}")
    cites = [Citation(ids.TRIAGE), Citation(cost.row.unit_id, f"Triage: {cost.ap} AP")]
    if patient.dying_rounds is None or patient.stabilized or patient.state is State.DEAD:
        why = "already stabilized" if patient.stabilized else ("dead" if patient.state is State.DEAD else "not dying")
        return _no_triage(patient, medic_ap, f"patient {why}", cites[:1])
    if not adjacent:
        return _no_triage(patient, medic_ap, "not adjacent", cites[:1])
    need = cost.ap - ap_spent_before
    spread = [across] if ap_spent_before or medic_ap < need else []
    if medic_ap < need and (across.answer == "one-round" or medic_ap == 0):
        return _no_triage(patient, medic_ap, f"needs {need} AP, {medic_ap} left", cites + [ids.AP_PER_ROUND], spread)
    if medic_ap < need:
        return TriageResult(patient, False, medic_ap, 0, need - medic_ap, Step.of(
            StepKind.RULING, f"Triage begun: {ap_spent_before + medic_ap} of {cost.ap} AP spent", False,
            detail=f"{need - medic_ap} AP more next round stabilizes the patient", cites=cites, rulings=spread))
    new, how, uses = _stabilized(patient, rulings)
    return TriageResult(new, True, need, medic_ap - need, 0, Step.of(
        StepKind.RESULT, f"Stabilized: the dying timer stops; {how}", True,
        detail=f"{need} AP" + (f" (after {ap_spent_before} last round)" if ap_spent_before else "") + ", no trial",
        cites=cites, rulings=spread + uses))
