"""The combat round: Startle/Ambush, declarations, the 1d6 side roll, Fast/Moderate/Slow phases
and held actions.

Entry points: :func:`startle` (one creature's Startle trial) and :func:`sequence_round` (the order
of action for a round). Rules: ``mastery/combat/combat-flow#1-16``,
``mastery/combat/action-points/initiative-phases``, ``mastery/combat/startle-and-ambush``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import dice_script
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Step, StepKind, TracedResult, merge_overrides

from . import ids
from . import rulings as R
from .schema import SEQUENCE, SEQUENCE_SLOTS
from .tiers import check_tier, roll_tier_die

__all__ = ["Phase", "Side", "Spell", "Declaration", "HoldTrigger", "RoundCombatant", "StartleResult",
           "SequenceResult", "WEAPON_EXAMPLES", "startle", "declared_phase", "sequence_round",
           "sequence_from_dict"]


class Phase(StrEnum):
    """Initiative phases, in order (``.../initiative-phases#2-4``, ``combat-flow#13-15``)."""

    FAST = "fast"
    MODERATE = "moderate"
    SLOW = "slow"

    @property
    def order(self) -> int:
        return _ORDER[self]


_ORDER = {Phase.FAST: 1, Phase.MODERATE: 2, Phase.SLOW: 3}
_PHASE_CITE = {Phase.FAST: ids.PHASE_FAST, Phase.MODERATE: ids.PHASE_MODERATE, Phase.SLOW: ids.PHASE_SLOW}
_RESOLVE_CITE = {Phase.FAST: ids.FLOW_FAST, Phase.MODERATE: ids.FLOW_MODERATE, Phase.SLOW: ids.FLOW_SLOW}


class Side(StrEnum):
    """The two sides of the 1d6 roll (``combat-flow#12``)."""

    PCS = "pcs"
    ENEMIES = "enemies"


WEAPON_EXAMPLES: dict[str, Phase] = {
    "dagger": Phase.FAST, "shortbow": Phase.FAST, "unarmed": Phase.FAST,
    "sword": Phase.MODERATE, "mace": Phase.MODERATE, "spear": Phase.MODERATE,
    "maul": Phase.SLOW, "greataxe": Phase.SLOW, "heavy crossbow": Phase.SLOW,
}
"""The weapons the chapter names as examples of each speed (``.../initiative-phases#2-4``).
Other weapons: give their speed (``"fast"``, ``"moderate"``, ``"slow"``), per Weapon Mastery."""

_SPELL_EXAMPLES = {"flame dart": Phase.FAST, "thunderclap": Phase.MODERATE}


def _phase(value: object, name: str) -> Phase:
    try:
        return Phase(str(value).lower())
    except ValueError:
        raise RulesInputError(name, f"unknown phase {value!r}; allowed: fast, moderate, slow") from None


def _weapon_phase(value: str, name: str) -> tuple[Phase, str]:
    v = str(value).lower().strip()
    if v in {p.value for p in Phase}:
        return Phase(v), ids.PHASES_BY_SPEED
    key = v[:-1] if v.endswith("s") and v[:-1] in WEAPON_EXAMPLES else v
    if key in WEAPON_EXAMPLES:
        ph = WEAPON_EXAMPLES[key]
        return ph, (ids.UNARMED_FAST if key == "unarmed" else _PHASE_CITE[ph])
    raise RulesInputError(name, f"unknown weapon {value!r}: give its speed (fast, moderate, slow) or one of "
                                f"the chapter's examples: {', '.join(WEAPON_EXAMPLES)}")


@dataclass(frozen=True)
class Spell:
    """A declared spell: its speed, or its magan cost (1-3 magan is Fast), or a named example."""

    name: str = ""
    speed: Phase | None = None
    magan: int | None = None

    def phase(self, field_name: str) -> tuple[Phase, str]:
        if self.speed is not None:
            return _phase(self.speed, f"{field_name}.speed"), ids.SPELL_SPEED
        if self.name.lower() in _SPELL_EXAMPLES:
            return _SPELL_EXAMPLES[self.name.lower()], ids.SPELL_SPEED
        if self.magan is not None:
            if isinstance(self.magan, bool) or not isinstance(self.magan, int) or self.magan < 1:
                raise RulesInputError(f"{field_name}.magan", f"must be a whole number >= 1, got {self.magan!r}")
            if self.magan <= 3:
                return Phase.FAST, ids.CASTING_REACTION
        raise RulesInputError(f"{field_name}.speed", "give the spell's speed (fast, moderate, slow): only 1-3 "
                                                     "magan spells are known to be Fast; see Magic Mastery, Spell Speed")


@dataclass(frozen=True)
class HoldTrigger:
    """Hold for a trigger: the condition, AP committed, and the phase it occurs in (None: never)."""

    condition: str
    ap: int = 1
    occurs: Phase | None = None


@dataclass(frozen=True)
class Declaration:
    """What a combatant declares (``combat-flow#3-10``).

    Attributes:
        weapon: the equipped weapon: a speed or a chapter example ("dagger", "maul", "unarmed"...).
        attack: whether a weapon attack is declared (a weapon held but not attacked with does not set
            the phase).
        switch_to: a weapon switched to this round (the slowest weapon involved sets the phase).
        style_speed: speed of a combat style being changed to, if any.
        spell: a declared spell.
        hold_to: hold to this later phase.
        hold_trigger: hold for a trigger.
    """

    weapon: str | None = None
    attack: bool = True
    switch_to: str | None = None
    style_speed: Phase | None = None
    spell: Spell | None = None
    hold_to: Phase | None = None
    hold_trigger: HoldTrigger | None = None


@dataclass(frozen=True)
class RoundCombatant:
    """A combatant in the round: name, side, declaration, and Startle tiers if unaware."""

    name: str
    side: Side
    declaration: Declaration = field(default_factory=Declaration)
    unaware: bool = False
    agility_tier: int = 1
    perception_tier: int = 1


@dataclass(frozen=True)
class StartleResult(TracedResult):
    """A Startle trial: total vs DC, failed by how much, the Impaired tier and condition, and the
    tier in the given round (0 = no longer Impaired)."""

    name: str
    total: int
    dc: int
    success: bool
    failed_by: int
    impaired_tier: int
    condition: str
    tier_this_round: int
    trace: Step


_STARTLE = ((5, 3, "Paralyzed", ids.STARTLE_PARALYZED), (3, 2, "Stunned", ids.STARTLE_STUNNED),
            (1, 1, "Dazed", ids.STARTLE_DAZED))
_CONDITION_BY_TIER = {3: "Paralyzed", 2: "Stunned", 1: "Dazed", 0: ""}


def startle(dice: Dice, *, name: str = "creature", agility_tier: int, perception_tier: int,
            dc: int | None = None, ambush_dc: int | None = None, round_number: int = 1,
            rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> StartleResult:
    """Roll a Startle trial: Agility tier die + Perception tier die (slots ``startle_agility``,
    ``startle_perception``) against DC 6 (both sides unaware), a GM-adjusted ``dc``, or ``ambush_dc``.

    Failed: Impaired tier 1 Dazed; by 3-4 tier 2 Stunned; by 5+ tier 3 Paralyzed; the tier drops one
    each round (``mastery.impaired-first-step``, ``mastery.impaired-below-1``).

    Raises:
        RulesInputError: bad tier, DC < 1, round < 1.
    """
    rules = resolve_rules(rules)
    check_tier(agility_tier, f"{name}.agility_tier")
    check_tier(perception_tier, f"{name}.perception_tier")
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise RulesInputError("round", f"must be a whole number >= 1, got {round_number!r}")
    children: list[Step] = []
    if ambush_dc is not None:
        the_dc, dc_cite, how = ambush_dc, ids.AMBUSH_DC, "ambush DC set by the ambushers"
    elif dc is not None:
        the_dc, dc_cite, how = dc, ids.STARTLE_DC, "DC adjusted by the GM"
    else:
        the_dc, dc_cite, how = 6, ids.STARTLE_DC, "both sides unaware"
    if isinstance(the_dc, bool) or not isinstance(the_dc, int) or the_dc < 1:
        raise RulesInputError("ambush_dc" if ambush_dc is not None else "dc", f"must be a whole number >= 1, got {the_dc!r}")
    children.append(Step.of(StepKind.RULE, "Startle DC", the_dc, detail=how, cites=[dc_cite]))
    explode = R.ruling_use(R.TRIAL_DICE_EXPLODE, rulings)
    ag = roll_tier_die(dice, agility_tier, "startle_agility", label="Agility tier die",
                       explode=explode.answer == "yes", explode_rulings=[explode], rulings=rulings,
                       field=f"{name}.agility_tier", rules=rules)
    pe = roll_tier_die(dice, perception_tier, "startle_perception", label="Perception tier die",
                       explode=explode.answer == "yes", explode_rulings=[explode], rulings=rulings,
                       field=f"{name}.perception_tier", rules=rules)
    total = ag.total + pe.total
    children += [ag.step, pe.step, Step.of(StepKind.RULING, "Startle roll: the two dice added", total,
                                           cites=[ids.STARTLE_TRIAL], rulings=[R.ruling_use(R.STARTLE_ROLL, rulings)])]
    if total == the_dc:
        tie = R.ruling_use(R.TRIAL_TIE, rulings)
        success = tie.answer == "success"
        children.append(Step.of(StepKind.RULING, "Roll equals the DC", "success" if success else "failure", rulings=[tie]))
    else:
        success = total > the_dc
    failed_by = 0 if success else max(the_dc - total, 1 if total == the_dc else 0)
    tier, condition = 0, ""
    if not success:
        for low, t, cond, cite in _STARTLE:
            if failed_by >= low:
                tier, condition = t, cond
                children.append(Step.of(StepKind.RULE, f"Failed by {failed_by}", f"Tier {t} Impaired: {cond}",
                                        cites=[cite]))
                break
    else:
        children.append(Step.of(StepKind.COMPARE, f"{total} vs DC {the_dc}", "success", cites=[ids.STARTLE_TRIAL]))
    now = tier
    if tier:
        first = R.ruling_use(R.IMPAIRED_FIRST_STEP, rulings)
        steps_down = round_number - 1 if first.answer == "from-round-2" else round_number
        now = max(tier - steps_down, 0)
        rus = [first] + ([R.ruling_use(R.IMPAIRED_BELOW_1, rulings)] if tier - steps_down <= 0 else [])
        children.append(Step.of(StepKind.RULING, f"Round {round_number}",
                                f"Impaired tier {now} ({_CONDITION_BY_TIER[now]})" if now else "no longer Impaired",
                                detail=f"stepped down {steps_down} tier(s)" if steps_down else "not yet stepped down",
                                cites=[ids.IMPAIRED_PROGRESSION] + ([ids.FLOW_NEXT_ROUND] if steps_down else []),
                                rulings=rus))
    step = Step.of(StepKind.RESULT, f"Startle ({name})",
                   "success: no effect" if success else f"Tier {tier} Impaired: {condition}",
                   detail=f"{total} vs DC {the_dc}", cites=[ids.FLOW_STARTLE, ids.STARTLE_TRIAL], children=children)
    return StartleResult(name, total, the_dc, success, failed_by, tier, condition, now, step)


def declared_phase(decl: Declaration, rulings: Mapping[str, str] | None = None,
                   field_name: str = "declaration") -> tuple[Phase, Step]:
    """The phase a declaration puts a combatant in: the slowest of the declared weapon attack, the
    weapons of a switch, a style change and a spell (``combat-flow#4``, ``#6``,
    ``initiative-phases#5``); unarmed is Fast; nothing with a speed -> ``mastery.phase-nothing-declared``.
    """
    parts: list[tuple[Phase, str, str]] = []
    if decl.weapon is not None and (decl.attack or decl.switch_to is not None):
        ph, cite = _weapon_phase(decl.weapon, f"{field_name}.weapon")
        parts.append((ph, f"weapon {decl.weapon}", cite))
    elif decl.weapon is not None:
        pass  # held, no attack declared: does not set the phase
    if decl.switch_to is not None:
        ph, cite = _weapon_phase(decl.switch_to, f"{field_name}.switch_to")
        parts.append((ph, f"switch to {decl.switch_to}", cite))
    if decl.style_speed is not None:
        parts.append((_phase(decl.style_speed, f"{field_name}.style_speed"), "style change", ids.FLOW_WEAPON))
    if decl.spell is not None:
        ph, cite = decl.spell.phase(f"{field_name}.spell")
        parts.append((ph, f"spell {decl.spell.name}".strip(), cite))
    children = [Step.of(StepKind.RULE, what, ph.value, cites=[cite]) for ph, what, cite in parts]
    if decl.weapon is not None and not decl.attack and decl.switch_to is None:
        children.append(Step.of(StepKind.RULE, f"{decl.weapon} held without a declared attack: does not set the phase",
                                cites=[ids.FLOW_SPELLS]))
    if not parts:
        use = R.ruling_use(R.PHASE_NOTHING_DECLARED, rulings)
        ph = Phase(use.answer)
        return ph, Step.of(StepKind.RULING, "Phase (nothing with a speed declared)", ph.value,
                           cites=[ids.PHASE_DECLARED], rulings=[use], children=children)
    ph = max((p for p, _, _ in parts), key=lambda p: p.order)
    cites = [ids.PHASE_DECLARED] + ([ids.FLOW_WEAPON] if decl.switch_to or decl.style_speed else []) + \
        ([ids.FLOW_SPELLS] if decl.spell is not None and len(parts) > 1 else [])
    return ph, Step.of(StepKind.RULE, "Phase" + (" (the slowest declared)" if len(parts) > 1 else ""),
                       ph.value, cites=cites, children=children)


@dataclass(frozen=True)
class SequenceResult(TracedResult):
    """The order of a round.

    Attributes:
        side_roll: the 1d6; first: the side that goes first.
        startle: Startle results (round 1 only, for unaware creatures; empty in later rounds).
        order: ``[{"phase", "side", "combatants": [names]}]`` in resolution order (empty slots left out).
        combatants: per name: natural phase, acting phase, hold outcome.
        trace: cited steps.
    """

    side_roll: int
    first: Side
    startle: tuple[StartleResult, ...]
    order: tuple[dict[str, Any], ...]
    combatants: dict[str, dict[str, Any]]
    trace: Step


def _count(n: int, noun: str) -> str:
    """``"5 declarations"``, ``"1 Startle trial"``: a count that says what it counts."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _acting(n: int) -> str:
    """A phase header's value: who acts in it."""
    return "nobody acts" if n == 0 else f"{_count(n, 'combatant')} act" + ("s" if n == 1 else "")


def _check_names(combatants: Sequence[RoundCombatant]) -> None:
    if not combatants:
        raise RulesInputError("combatants", "at least one combatant is needed")
    names = [c.name for c in combatants]
    if len(set(names)) != len(names):
        seen: set[str] = set()
        repeated = sorted({n for n in names if n in seen or seen.add(n)})
        raise RulesInputError("combatants", f"names must be unique; used more than once: "
                                            f"{', '.join(map(repr, repeated[:10]))}"
                                            + (f" and {len(repeated) - 10} more" if len(repeated) > 10 else ""))


@dataclass
class _Round:
    """What sequencing one round carries from stage to stage (one per call, never shared)."""

    combatants: Sequence[RoundCombatant]
    round_number: int
    dice: Dice
    rulings: dict[str, str]
    rules: Rules
    startle_dc: int | None = None
    ambush_dc: int | None = None
    side_roll: int | None = None
    startles: list[StartleResult] = field(default_factory=list)
    info: dict[str, dict[str, Any]] = field(default_factory=dict)
    first: Side = Side.PCS
    face: int = 0
    order: list[dict[str, Any]] = field(default_factory=list)


def startle_or_ambush(r: _Round) -> list[Step]:
    """Step 1: at the start of combat (round 1) each unaware creature makes a Startle trial
    (``combat-flow#2``, ``startle-and-ambush#1``); in later rounds nobody does."""
    unaware = [c for c in r.combatants if c.unaware]
    if not unaware:
        return [Step.of(StepKind.INFO, "1. Startle or Ambush: nobody is unaware", cites=[ids.FLOW_STARTLE])]
    if r.round_number > 1:
        for c in unaware:
            check_tier(c.agility_tier, f"{c.name}.agility_tier")
            check_tier(c.perception_tier, f"{c.name}.perception_tier")
        return [Step.of(StepKind.RULE, f"1. Startle or Ambush: only at the start of combat, not in round "
                                       f"{r.round_number}", "no trial",
                        detail=f"{', '.join(c.name for c in unaware)}: the Startle result of round 1 steps down "
                               "each round (startle(..., round_number=N))",
                        cites=[ids.FLOW_STARTLE, ids.STARTLE_TRIAL])]
    for c in unaware:
        r.startles.append(startle(r.dice, name=c.name, agility_tier=c.agility_tier, perception_tier=c.perception_tier,
                                  dc=r.startle_dc, ambush_dc=r.ambush_dc, round_number=r.round_number,
                                  rulings=r.rulings, rules=r.rules))
    return [Step.of(StepKind.RESULT, "1. Startle or Ambush", _count(len(r.startles), "Startle trial"),
                    cites=[ids.FLOW_STARTLE], children=[s.trace for s in r.startles])]


def _hold(d: Declaration, natural: Phase, fname: str) -> tuple[Phase | None, str, list[Step]]:
    """A hold to a later phase (``combat-flow#9``) or for a trigger (``#10``): the acting phase
    (None: no action), what happened, and the step."""
    if d.hold_to is not None and d.hold_trigger is not None:
        raise RulesInputError(f"{fname}.hold_to", "hold either to a phase or for a trigger, not both")
    if d.hold_to is not None:
        to = _phase(d.hold_to, f"{fname}.hold_to")
        if to.order <= natural.order:
            raise RulesInputError(f"{fname}.hold_to",
                                  f"cannot hold to {to.value}: a hold names a phase later than the declared "
                                  f"phase ({natural.value}); you cannot hold to an earlier phase")
        return to, f"held to {to.value}", [Step.of(StepKind.RULE, "Held to a later phase", to.value,
                                                   cites=[ids.FLOW_HOLD, ids.FLOW_HOLD_PHASE])]
    if d.hold_trigger is None:
        return natural, "", []
    ht = d.hold_trigger
    if isinstance(ht.ap, bool) or not isinstance(ht.ap, int) or not 1 <= ht.ap <= 2:
        raise RulesInputError(f"{fname}.hold_trigger.ap", f"must commit 1 or 2 AP, got {ht.ap!r}")
    if ht.occurs is None:
        acting, hold = None, f"trigger never occurred: {ht.ap} AP lost"
    else:
        occ = _phase(ht.occurs, f"{fname}.hold_trigger.occurs")
        if occ.order < natural.order:
            acting, hold = None, f"trigger in {occ.value}, before the natural phase ({natural.value}): cannot react"
        else:
            acting, hold = occ, f"acts immediately when the trigger occurs in {occ.value}"
    return acting, hold, [Step.of(StepKind.RULE, f"Hold for trigger ({ht.condition}): {hold}",
                                  acting.value if acting else "no action", detail=f"{ht.ap} AP committed",
                                  cites=[ids.FLOW_HOLD, ids.FLOW_HOLD_TRIGGER])]


def declarations(r: _Round) -> list[Step]:
    """Step 2: each combatant's declaration sets its phase (``combat-flow#3-11``), then any hold."""
    decl_steps = []
    for i, c in enumerate(r.combatants):
        fname = f"combatants[{i}].declaration"
        try:
            side = Side(str(c.side).lower())
        except ValueError:
            raise RulesInputError(f"combatants[{i}].side", f"unknown side {c.side!r}; allowed: pcs, enemies") from None
        natural, pstep = declared_phase(c.declaration, r.rulings, fname)
        acting, hold, hold_steps = _hold(c.declaration, natural, fname)
        r.info[c.name] = {"side": side.value, "natural_phase": natural.value,
                          "acting_phase": acting.value if acting else None, "hold": hold}
        decl_steps.append(Step.of(StepKind.RESULT, f"{c.name} ({side.value})", acting.value if acting else "no action",
                                  children=[pstep, *hold_steps]))
    return [Step.of(StepKind.RESULT, "2. Declaration Phase", _count(len(decl_steps), "declaration"),
                    cites=[ids.FLOW_DECLARATION, ids.FLOW_ONLY_DECLARED], children=decl_steps)]


def side_roll(r: _Round) -> list[Step]:
    """Step 3: 1d6 for which side goes first, 1-3 PCs, 4-6 enemies (``combat-flow#12``; slot ``side``)."""
    if r.side_roll is None:
        r.face, how = r.dice.roll(6, "side"), "rolled"
    else:
        if isinstance(r.side_roll, bool) or not isinstance(r.side_roll, int) or not 1 <= r.side_roll <= 6:
            raise RulesInputError("side_roll", f"a 1d6 result: a whole number from 1 to 6, got {r.side_roll!r}")
        r.face, how = r.side_roll, "entered"
    r.first = Side.PCS if r.face <= 3 else Side.ENEMIES
    return [Step.of(StepKind.ROLL, f"3. Side roll ({how}): {r.first.value} first", f"1d6 = {r.face}",
                    detail="1-3 PCs, 4-6 enemies", cites=[ids.FLOW_SIDE_ROLL])]


def phases(r: _Round) -> list[Step]:
    """Steps 4-6: Fast, Moderate, Slow, each the winning side then the losing side (``combat-flow#13-15``)."""
    second = Side.ENEMIES if r.first is Side.PCS else Side.PCS
    steps = []
    for n, ph in enumerate(Phase, start=4):
        slots = []
        for side in (r.first, second):
            who = [c.name for c in r.combatants
                   if r.info[c.name]["side"] == side.value and r.info[c.name]["acting_phase"] == ph.value]
            if who:
                r.order.append({"phase": ph.value, "side": side.value, "combatants": who})
                slots.append(Step.of(StepKind.INFO, f"{side.value}: {', '.join(who)}"))
        steps.append(Step.of(StepKind.RULE, f"{n}. {ph.value.capitalize()} phase (winning side, then losing side)",
                             _acting(sum(len(o["combatants"]) for o in r.order if o["phase"] == ph.value)),
                             cites=[_RESOLVE_CITE[ph]], children=slots))
    return steps


def next_round(r: _Round) -> list[Step]:
    """Step 7: the next round begins; conditions are reduced, unspent AP lost (``combat-flow#16``,
    ``.../use-it-or-lose-it#1``)."""
    return [Step.of(StepKind.INFO, "7. Next round: conditions reduced; unspent AP lost",
                    cites=[ids.FLOW_NEXT_ROUND, ids.USE_IT_OR_LOSE_IT])]


STAGES = (startle_or_ambush, declarations, side_roll, phases, next_round)
"""The combat flow of one round, step by step (``mastery/combat/combat-flow``)."""


def sequence_round(combatants: Sequence[RoundCombatant], *, round_number: int = 1, side_roll: int | None = None,
                   startle_dc: int | None = None, ambush_dc: int | None = None, dice: Dice | None = None,
                   seed: int | None = None, script: Mapping[str, Any] | None = None,
                   rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> SequenceResult:
    """Sequence a round through :data:`STAGES`: Startle (unaware creatures), declarations -> phases
    and holds, the 1d6 side roll (slot ``side``; 1-3 PCs, 4-6 enemies), then Fast, Moderate, Slow,
    each winning side first; a hold to a later phase or for a trigger.

    Raises:
        RulesInputError: a hold to the same or an earlier phase (field
            ``combatants[i].declaration.hold_to``), duplicate names, a side roll outside 1..6, ...
    """
    rulings = R.check(rulings)
    rules = resolve_rules(rules)
    _check_names(combatants)
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise RulesInputError("round", f"must be a whole number >= 1, got {round_number!r}")
    r = _Round(combatants, round_number, dice or Dice(seed=seed, script=dice_script(script, SEQUENCE_SLOTS)), rulings, rules, startle_dc,
               ambush_dc, side_roll)
    steps: list[Step] = []
    for stage in STAGES:
        steps += stage(r)
    trace = Step.of(StepKind.RESULT, f"Round {round_number}: {r.first.value} first", f"side roll {r.face}",
                    children=steps)
    return SequenceResult(r.face, r.first, tuple(r.startles), tuple(r.order), r.info, trace)


def _declaration(d: Mapping[str, Any]) -> Declaration:
    """A declaration read by :data:`.schema.SEQUENCE` (``combatants[i].declaration``)."""
    spell = d.get("spell")
    if isinstance(spell, str):
        spell = Spell(name=spell)
    elif spell is not None:
        spell = Spell(name=spell.get("name", ""), speed=spell.get("speed"), magan=spell.get("magan"))
    ht = d.get("hold_trigger")
    if ht is not None:
        occ = ht.get("occurs")
        ht = HoldTrigger(ht["condition"], ht.get("ap", 1), None if occ is None else Phase(occ))
    return Declaration(weapon=d.get("weapon"), attack=d.get("attack", True), switch_to=d.get("switch_to"),
                       style_speed=d.get("style_speed"), spell=spell, hold_to=d.get("hold_to"), hold_trigger=ht)


def _combatant(c: Mapping[str, Any]) -> RoundCombatant:
    """A combatant read by :data:`.schema.SEQUENCE` (``combatants[i]``)."""
    return RoundCombatant(c["name"], c["side"], _declaration(c.get("declaration", {})), c.get("unaware", False),
                          c.get("agility_tier", 1), c.get("perception_tier", 1))


def sequence_from_dict(data: Mapping[str, Any], *, seed: int | None = None,
                       rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> SequenceResult:
    """Sequence a round from the JSON input format (``ruleslawyer sequence mastery --schema``), read
    strictly by :data:`.schema.SEQUENCE`.

    Raises:
        RulesInputError: naming the bad field: an unknown field or dice slot (with a did-you-mean),
            text for a boolean or number, a value past its bound.
    """
    d = SEQUENCE.read(data, "")  # strict: unknown fields, types, bounds, dice slots (dice.sid)
    out = [_combatant(c) for c in d["combatants"]]
    merged = merge_overrides(d.get("rulings"), rulings)
    return sequence_round(out, round_number=d.get("round", 1), side_roll=d.get("side_roll"),
                          startle_dc=d.get("startle_dc"), ambush_dc=d.get("ambush_dc"),
                          seed=seed if seed is not None else d.get("seed"), script=d.get("dice"),
                          rulings=merged, rules=rules)
