"""One Mastery exchange, melee or ranged: attack, the defender's choice, defense or passive defense,
damage, what health damage leads to, an optional counterattack, and AP spent and left.

Entry point: :func:`resolve_exchange`. Rules: ``mastery/combat/actions-and-reactions/attack``,
``.../defense``, ``.../triggered-reactions-all-cost-1-ap``, ``mastery/combat/additional-combat-rules``
and ``mastery/combat/death``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from ruleslawyer.dice import Dice, explosion_cap, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import check_attrs, dice_script
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult, merge_overrides

from . import ids
from . import rulings as R
from .actions import action_cost, spend_ap
from .combatant import (PROJECTILE_KINDS, RANGED_KINDS, WEAPON_ATTACK_KINDS, Attack, AttackKind, Combatant,
                        State, Wielding)
from .damage import DamageOutcome, DamagePortion, apply_damage, hit_amount
from .death import health_damage_aftermath
from .schema import EXCHANGE, EXCHANGE_SLOTS, SITUATION
from .tiers import Edge, roll_tier_die, roll_trial
from .trauma import Trauma, TraumaSetting
from .trauma_effects import act_trial, penalty

__all__ = ["Range", "Elevation", "Situation", "ExchangeResult", "resolve_exchange", "exchange_from_dict"]


class Range(StrEnum):
    """Range band: melee, or a ranged band for the Aiming Trial (close is the base DC 2)."""

    MELEE = "melee"
    CLOSE = "close"
    MODERATE = "moderate"
    FAR = "far"


_RANGE_DC = {Range.CLOSE: 0, Range.MODERATE: 1, Range.FAR: 3}


class Elevation(StrEnum):
    """Who has elevation over the other (``.../movement/terrain#7``)."""

    NONE = "none"
    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True)
class Situation:
    """The circumstances of the exchange.

    Attributes:
        defend: the defender declares a defense (1 AP) before the roll.
        range: melee, or close/moderate/far for a ranged attack.
        flanking: the target is threatened on the other side by the attacker's ally (+2).
        first_attack_of_ap: this is the first attack made with its AP (flanking counts once per AP).
        elevation: none, attacker or defender.
        allies_adjacent_to_target: the attacker's allies adjacent to the target (+1 Aiming DC each).
        cover: extra Aiming DC from cover and maneuvers (>= 0).
        hostile_within_5ft: a hostile creature is within 5 ft of the attacker.
        counterattack: after a successful defense the defender counterattacks (1 AP) if able.
        counter_defend: the original attacker defends the counterattack if able.
        fight_on: on reaching 0 and passing the Endurance trial, remain conscious and fight on.
        setting: trauma setting (realistic, brutal, deadly).
        sheet_effects: apply the Traumas on the combatants' sheets where they bite (a fight sets it): the
            Endurance trial when spending AP to attack (Cracked Sternum, Skull Fracture, ...), the
            penalty on ranged attack rolls and on the Aiming Trial (lost eye, Blurred Vision). Default
            false: a single exchange reads the sheet only for its AP per round.
        precipitation: it is raining, sleeting, hailing or snowing (Painful Scar's trial; with sheet_effects).
    """

    defend: bool = True
    range: Range = Range.MELEE
    flanking: bool = False
    first_attack_of_ap: bool = True
    elevation: Elevation = Elevation.NONE
    allies_adjacent_to_target: int = 0
    cover: int = 0
    hostile_within_5ft: bool = False
    counterattack: bool = False
    counter_defend: bool = True
    fight_on: bool = True
    setting: TraumaSetting = TraumaSetting.REALISTIC
    sheet_effects: bool = False
    precipitation: bool = False

    def __post_init__(self) -> None:
        for name, cls in (("range", Range), ("elevation", Elevation), ("setting", TraumaSetting)):
            v = getattr(self, name)
            try:
                object.__setattr__(self, name, cls(str(v).lower()))
            except ValueError:
                raise RulesInputError(f"situation.{name}", f"unknown value {v!r}; allowed: "
                                                           f"{', '.join(m.value for m in cls)}") from None
        check_attrs(self, SITUATION, "situation", [f.name for f in fields(self) if f.type in ("bool", "int")])


@dataclass(frozen=True)
class ExchangeResult(TracedResult):
    """The outcome of one exchange.

    Attributes:
        outcome: ``"hit"``, ``"defended"``, ``"missed"`` (failed Aiming Trial), ``"not-allowed"``, or
            ``"no-effect"`` (a Trauma's Endurance trial failed: the AP is spent with no effect; only with
            ``Situation.sheet_effects``).
        attack_total, defense_total, aim_total: the rolls (None when not rolled).
        defended: whether an active defense was made.
        damage: total damage of the hit (all portions; 0 when it did not land).
        absorbed, to_durability, to_health: where it went.
        attacker, defender: the two combatants after the exchange (AP, health, state, sheet).
        ap: ``{"attacker": {"spent": n, "left": n}, "defender": {...}}`` for this exchange,
            counterattack included.
        engaged: who is now Engaged with whom, as ``"A with B"``.
        traumas: Traumas the defender suffered.
        spell: defender's spell: ``""``, ``"lost"`` or ``"at risk"``.
        capped: an exploding die hit the explosion cap.
        counter: the counterattack's own result, if one was made.
        trace: the cited step tree.
    """

    outcome: str
    attack_total: int | None
    defense_total: int | None
    aim_total: int | None
    defended: bool
    damage: int
    absorbed: int
    to_durability: int
    to_health: int
    attacker: Combatant
    defender: Combatant
    ap: dict[str, dict[str, int]]
    engaged: tuple[str, ...]
    traumas: tuple[Trauma, ...]
    spell: str
    capped: bool
    counter: ExchangeResult | None
    trace: Step


def _edges_for(role: str, elevation: Elevation, rulings) -> tuple[list[Edge], list[Any]]:
    """Edges from elevation for the attacker's attack roll or the defender's defense roll."""
    if elevation is Elevation.NONE:
        return [], []
    high = "attacker" if elevation is Elevation.ATTACKER else "defender"
    if role == high:
        return [Edge.DOMINANCE], []
    if role == "attacker":
        return [Edge.IMPOTENCE], []
    use = R.ruling_use(R.ELEVATION_LOWER_DEFENSE, rulings)
    return ([Edge.IMPOTENCE] if use.answer == "impotence" else []), [use]


def _formula_cite(kind: AttackKind) -> str:
    return {AttackKind.BOW: ids.FORMULA_BOW, AttackKind.CROSSBOW: ids.FORMULA_CROSSBOW}.get(kind, ids.FORMULA_MELEE)


@dataclass
class _Exchange:
    """What one exchange carries from stage to stage (one per call, never shared).

    A stage reads and updates it and returns its trace steps; the stage that decides the outcome
    (not allowed, missed, defended) sets ``outcome`` and the exchange stops there.
    """

    A: Combatant
    D: Combatant
    atk: Attack
    sit: Situation
    dice: Dice
    rulings: dict[str, str]
    rules: Rules
    depth: int
    ap_start: dict[str, int]
    outcome: str = ""
    defends: bool = False
    spell: str = ""
    aim_total: int | None = None
    attack_total: int | None = None
    defense_total: int | None = None
    exploded: bool = False
    capped: bool = False
    engaged: list[str] = field(default_factory=list)
    counter: ExchangeResult | None = None
    portions: list[DamagePortion] = field(default_factory=list)
    damage: DamageOutcome | None = None
    traumas: tuple[Trauma, ...] = ()

    @property
    def ranged(self) -> bool:
        return self.atk.kind in RANGED_KINDS


# --------------------------------------------------------------------------- stages, in order


def attack_allowed(x: _Exchange) -> list[Step]:
    """No projectile or sling attack with a hostile within 5 ft, unless the crossbow is already
    spanned (``.../defense#8``); whether a thrown weapon counts is ``mastery.thrown-projectile``.
    Sets ``not-allowed``."""
    kind, sit = x.atk.kind, x.sit
    if kind not in PROJECTILE_KINDS and kind is not AttackKind.THROWN:
        return []
    thrown_use = R.ruling_use(R.THROWN_PROJECTILE, x.rulings) if kind is AttackKind.THROWN else None
    projectile = kind in PROJECTILE_KINDS or (thrown_use is not None and thrown_use.answer == "yes")
    if not sit.hostile_within_5ft:
        return []
    if not projectile:
        return [Step.of(StepKind.RULING, "Hostile within 5 ft: a thrown weapon is not a projectile weapon",
                        "may throw", cites=[ids.HOSTILE_WITHIN_5FT], rulings=[thrown_use])]
    if kind is AttackKind.CROSSBOW and x.atk.spanned:
        return [Step.of(StepKind.RULE, "Hostile within 5 ft, but the crossbow is already spanned", "may fire",
                        detail="it cannot be spanned again while the hostile is that close",
                        cites=[ids.HOSTILE_WITHIN_5FT])]
    x.outcome = "not-allowed"
    return [Step.of(StepKind.RULE, "No projectile or sling attack with a hostile within 5 ft", "not allowed",
                    cites=[ids.HOSTILE_WITHIN_5FT], rulings=[thrown_use] if thrown_use else [])]


def attack_costs_ap(x: _Exchange) -> list[Step]:
    """The attack costs its AP (the Attack row of the action costs: 1, ``.../action-costs#3``); the
    attacker is Engaged with the target (``.../additional-combat-rules#3``)."""
    x.A, step = spend_ap(x.A, "Attack", x.rules, field="attacker", label=f"{x.A.name} attacks",
                         cites=(ids.COST_ATTACK, ids.ATTACK))
    x.engaged.append(f"{x.A.name} with {x.D.name}")
    return [step, Step.of(StepKind.RULE, f"{x.A.name} is Engaged with {x.D.name}", cites=[ids.ENGAGED])]


def trauma_trial(x: _Exchange) -> list[Step]:
    """With ``Situation.sheet_effects``: the Endurance trial the attacker's Traumas call for whenever it
    spends AP to attack (their rows of ``mastery/combat/tables/trauma``; :func:`.trauma_effects.act_trial`);
    on a failure the AP is spent with no effect and the exchange stops (``no-effect``)."""
    if not x.sit.sheet_effects:
        return []
    ok, steps = act_trial(x.A, "attack", dice=x.dice, precipitation=x.sit.precipitation, rulings=x.rulings,
                          rules=x.rules)
    if not ok:
        x.outcome = "no-effect"
    return steps


def _cannot_defend(x: _Exchange) -> tuple[str, list[Any]]:
    """Why the defender cannot defend (``""`` if it can), with the cites and rulings that say so."""
    D = x.D
    if D.state is State.UNCONSCIOUS and R.use(R.UNCONSCIOUS_DEFENSE, x.rulings) == "cannot-defend":
        return f"{D.name} is unconscious", [ids.GOING_DOWN_UNCONSCIOUS, R.ruling_use(R.UNCONSCIOUS_DEFENSE, x.rulings)]
    if D.ap < action_cost("Defense", rules=x.rules).ap:
        return "no AP left", [ids.DEFENSE_NO_AP]
    if D.wielding is Wielding.PROJECTILE:
        return "wielding only a projectile weapon or sling", [ids.DEFENSE_PROJECTILE]
    if x.ranged and not D.has_shield:
        return "a ranged attack can be defended only with a shield", [ids.DEFENSE_RANGED_SHIELD]
    return "", []


def defender_declares(x: _Exchange) -> list[Step]:
    """Before the roll the defender declares a defense (1 AP, ``.../defense#1-2``) or takes passive
    defense (``.../defense#16``): by choice, or because it cannot defend (no AP ``#3``, only a
    projectile weapon ``#6``, a ranged attack without a shield ``#14``, unconscious
    ``mastery.unconscious-defense``). A defender casting a spell loses it (``#9``)."""
    D = x.D
    if not x.sit.defend:
        return [Step.of(StepKind.RULE, f"{D.name} chooses not to defend", "passive defense",
                        cites=[ids.PASSIVE_DEFENSE, ids.ATTACK_ALWAYS_HITS if x.ranged else ids.MELEE_HITS])]
    why, cite = _cannot_defend(x)
    if why:
        return [Step.of(StepKind.RULE, f"{D.name} cannot defend: {why}", "passive defense",
                        cites=[c for c in cite if isinstance(c, str)] + [ids.PASSIVE_DEFENSE],
                        rulings=[c for c in cite if not isinstance(c, str)])]
    x.defends = True
    shield = (Step.of(StepKind.RULE, "A shield counts as a weapon; not unarmed", cites=[ids.DEFENSE_SHIELD_WEAPON]),) \
        if D.wielding is Wielding.SHIELD else ()
    if D.state is State.UNCONSCIOUS:  # defends only under the can-defend answer
        shield += (Step.of(StepKind.RULING, f"{D.name} is unconscious but may defend", cites=[ids.GOING_DOWN_UNCONSCIOUS],
                           rulings=[R.ruling_use(R.UNCONSCIOUS_DEFENSE, x.rulings)]),)
    x.D, step = spend_ap(D, "Defense", x.rules, field="defender", label=f"{D.name} declares a defense before the roll",
                         cites=(ids.DEFENSE_DECLARE, ids.DEFENSE, ids.COST_DEFENSE), children=shield)
    steps = [step]
    if D.casting:
        x.spell = "lost"
        x.D = x.D.with_(casting=False)
        steps.append(Step.of(StepKind.RULE, f"{D.name} interrupts the spell being cast to defend: spell lost", "lost",
                             cites=[ids.DEFENSE_CASTING, ids.CASTING_INTERRUPTED]))
    return steps


def aiming_trial(x: _Exchange) -> list[Step]:
    """A ranged attack needs an Aiming Trial: the Perception tier die against DC 2, +1 Moderate, +3
    Far, +1 per ally adjacent to the target, + cover; a 1 always misses, a max roll always hits
    (``.../attack#4-5``). Elevation per ``mastery.edge-on-aiming``. A miss sets ``missed`` (the
    declared defense AP per ``mastery.defense-ap-on-miss``)."""
    if not x.ranged:
        return []
    sit = x.sit
    dc = 2 + _RANGE_DC[sit.range] + sit.allies_adjacent_to_target + sit.cover
    parts = ["2"] + ([f"+{_RANGE_DC[sit.range]} {sit.range.value}"] if _RANGE_DC[sit.range] else []) + \
        ([f"+{sit.allies_adjacent_to_target} allies adjacent"] if sit.allies_adjacent_to_target else []) + \
        ([f"+{sit.cover} cover"] if sit.cover else [])
    steps = [Step.of(StepKind.RULE, "Aiming Trial DC", dc, detail=" ".join(parts),
                     cites=[ids.RANGED_AIM, ids.AIMING_TRIAL] + ([ids.ALLIES] if sit.allies_adjacent_to_target else []))]
    aim_edges: list[Edge] = []
    if sit.elevation is not Elevation.NONE:
        edge_use = R.ruling_use(R.EDGE_ON_AIMING, x.rulings)
        if edge_use.answer == "yes":
            aim_edges, _ = _edges_for("attacker", sit.elevation, x.rulings)
        steps.append(Step.of(StepKind.RULING, "Elevation and the Aiming Trial", edge_use.answer,
                             cites=[ids.ELEVATION], rulings=[edge_use]))
    modifier = 0
    if sit.sheet_effects:
        use = R.ruling_use(R.AIMING_SIGHT, x.rulings)
        if use.answer == "yes":
            modifier, sight = penalty(x.A.sheet, "sight-penalty", "Traumas: Perception trials that rely on sight",
                                      rulings=x.rulings, rules=x.rules, extra_rulings=[use])
            steps += [sight] if sight else []
    aim = roll_trial(x.dice, x.A.perception_tier, dc, "aim", label="Aiming Trial", cites=[ids.AIMING_TRIAL],
                     rulings=x.rulings, modifier=modifier, natural_rules=True, natural_cites=[ids.AIMING_TRIAL], edges=aim_edges,
                     edge_cites=[ids.ELEVATION], field="attacker.perception_tier", rules=x.rules)
    steps.append(aim.trace)
    x.aim_total = aim.total
    if aim.success:
        return steps
    x.outcome = "missed"
    if x.defends:
        use = R.ruling_use(R.DEFENSE_AP_ON_MISS, x.rulings)
        if use.answer == "refunded":
            x.D = x.D.with_(ap=x.D.ap + 1)
        steps.append(Step.of(StepKind.RULING, f"{x.D.name}'s declared defense AP", use.answer,
                             cites=[ids.DEFENSE_DECLARE], rulings=[use]))
        x.defends = False
    return steps


def _weapon_dice(x: _Exchange, form: str) -> tuple[int, Step]:
    """WEA as dice (a crossbow's fixed weapon dice): every die explodes (``.../attack#11``), up to the
    kit's cap (``kit.explosion-cap``)."""
    expr = parse_dice(x.atk.weapon)
    cap, cap_use = explosion_cap(x.rulings)
    rolls = []
    for term in expr.dice:
        for _ in range(term.count):
            r = x.dice.exploding(term.sides, "attack", cap=cap)
            rolls.append(r)
            x.exploded |= r.exploded
            x.capped |= r.capped
    total = sum(r.total for r in rolls) + expr.modifier
    return total, Step.of(StepKind.ROLL, "Fixed weapon dice" if x.atk.kind is AttackKind.CROSSBOW else "WEA", total,
                          detail=f"{x.atk.weapon}: " + ", ".join("+".join(map(str, r.faces)) for r in rolls),
                          cites=[form, ids.ATTACK_EXPLODES],
                          rulings=[cap_use] if any(r.capped for r in rolls) else [])


def attack_roll(x: _Exchange) -> list[Step]:
    """The attack roll: tier die + WEA + modifiers (``.../attack#7-9``; a sling per
    ``mastery.sling-formula``), dice exploding on a max roll (``#11``); flanking +2 on the first
    attack of an AP (``.../additional-combat-rules#2``); elevation's Dominance or Impotence
    (``.../terrain#7``)."""
    atk, sit = x.atk, x.sit
    form = _formula_cite(atk.kind)
    edges, _ = _edges_for("attacker", sit.elevation, x.rulings)
    tier = roll_tier_die(x.dice, atk.tier, "attack", label=f"Tier {atk.tier} die", explode=True,
                         explode_cites=[ids.ATTACK_EXPLODES], edges=edges, edge_cites=[ids.ELEVATION],
                         rulings=x.rulings, field="attack.tier", rules=x.rules)
    children, total = [tier.step], tier.total
    x.exploded, x.capped = tier.exploded, tier.capped
    if isinstance(atk.weapon, str):
        wea, step = _weapon_dice(x, form)
        total += wea
        children.append(step)
    elif atk.weapon:
        total += atk.weapon
        children.append(Step.of(StepKind.MODIFIER, "WEA", f"+{atk.weapon}", cites=[form]))
    if sit.flanking and sit.first_attack_of_ap:
        total += 2
        children.append(Step.of(StepKind.MODIFIER, "Flanking", "+2", cites=[ids.FLANKING]))
    elif sit.flanking:
        children.append(Step.of(StepKind.RULE, "Flanking: not the first attack of this AP", "+0", cites=[ids.FLANKING]))
    if atk.modifiers:
        total += atk.modifiers
        children.append(Step.of(StepKind.MODIFIER, "Modifiers", f"{atk.modifiers:+d}", cites=[form]))
    if sit.sheet_effects and x.ranged:
        mod, step = penalty(x.A.sheet, "ranged-penalty", "Traumas: penalty on ranged attack rolls",
                            rulings=x.rulings, rules=x.rules)
        total += mod
        children += [step] if step else []
    x.attack_total = total
    detail = {ids.FORMULA_BOW: "PHY tier die + WEA + modifiers",
              ids.FORMULA_CROSSBOW: "PER tier die + fixed weapon dice + modifiers"}.get(form, "STR or PHY tier die + WEA + modifiers")
    sling = [R.ruling_use(R.SLING_FORMULA, x.rulings)] if atk.kind is AttackKind.SLING else []
    return [Step.of(StepKind.ROLL, f"Attack roll ({x.A.name}, {atk.kind.value})", total, detail=detail,
                    cites=[form, ids.ATTACK_EXPLODES], rulings=sling, children=children)]


def _defense_total(x: _Exchange) -> tuple[int, Step]:
    """Tier die (of the wielded melee weapon, or STR or PHY) + armour resistance + shield +
    modifiers (``.../defense#4``, ``#10``, ``#15``), exploding (``#12``); unarmed against a weapon
    attack has Inferiority (``#7``); elevation's edges (``.../terrain#7``)."""
    D, atk = x.D, x.atk
    children: list[Step] = [Step.of(StepKind.RULE, "Tier die of the wielded melee weapon, or STR or PHY",
                                    D.defense_tier, cites=[ids.DEFENSE_WIELDING])]
    edges, edge_rulings = _edges_for("defender", x.sit.elevation, x.rulings)
    edge_cites: list[str | Citation] = [ids.ELEVATION] if x.sit.elevation is not Elevation.NONE else []
    if D.wielding is Wielding.UNARMED and atk.kind in WEAPON_ATTACK_KINDS:
        edges.append(Edge.INFERIORITY)
        edge_cites += [ids.DEFENSE_INFERIORITY, ids.WEAPON_ATTACK]
        children.append(Step.of(StepKind.RULE, "Unarmed defense against a weapon attack: Inferiority",
                                cites=[ids.DEFENSE_INFERIORITY, ids.WEAPON_ATTACK]))
    tier = roll_tier_die(x.dice, D.defense_tier, "defense", label=f"Tier {D.defense_tier} die", explode=True,
                         explode_cites=[ids.DEFENSE_EXPLODES], edges=edges, edge_cites=edge_cites,
                         rulings=x.rulings, field=f"{D.name}.defense_tier", rules=x.rules)
    x.capped |= tier.capped
    children.append(tier.step)
    total = tier.total
    for name, value, cites in (("Armour resistance", D.armour_resistance, [ids.FORMULA_DEFENSE, ids.ARMOR_RESISTANCE]),
                               ("Shield", D.shield, [ids.FORMULA_DEFENSE]),
                               ("Modifiers", D.defense_modifiers, [ids.FORMULA_DEFENSE])):
        if value:
            total += value
            children.append(Step.of(StepKind.MODIFIER, name, f"{value:+d}", cites=cites))
    if edge_rulings:
        children.append(Step.of(StepKind.RULING, "Elevation", cites=[ids.ELEVATION], rulings=edge_rulings))
    return total, Step.of(StepKind.ROLL, f"Defense roll ({D.name})", total,
                          detail="tier die + armour resistance + shield + modifiers",
                          cites=[ids.FORMULA_DEFENSE, ids.DEFENSE_EXPLODES], children=children)


def defense_roll(x: _Exchange) -> list[Step]:
    """The declared defense is rolled; equal to or greater than the attack, it succeeds
    (``.../defense#13``, ``.../attack#13``) and sets ``defended``."""
    if not x.defends:
        return []
    x.defense_total, step = _defense_total(x)
    held = x.defense_total >= x.attack_total
    if held:
        x.outcome = "defended"
    return [step, Step.of(StepKind.COMPARE, f"Defense {x.defense_total} vs attack {x.attack_total}",
                          "defended" if held else "hit",
                          detail="equal to or greater than the attack: the defense succeeds" if held else
                          "lower than the attack: the defense fails", cites=[ids.DEFENSE_TIE, ids.ATTACK_TIE])]


def counterattack(x: _Exchange) -> list[Step]:
    """After a successful defense the defender may counterattack for 1 AP
    (``.../triggered-reactions-all-cost-1-ap#1``): an exchange of its own, the roles swapped; in
    melee against a ranged attacker per ``mastery.melee-counter-at-range``."""
    D, A, sit = x.D, x.A, x.sit
    if not sit.counterattack:
        return []
    if D.ap < 1:
        return [Step.of(StepKind.RULE, f"{D.name} cannot counterattack: no AP left", cites=[ids.COUNTERATTACK])]
    if D.attack is None:
        raise RulesInputError("defender.attack", "a counterattack needs the defender's attack profile")
    c_ranged = D.attack.kind in RANGED_KINDS
    at_range = [] if c_ranged or sit.range is Range.MELEE else [R.ruling_use(R.MELEE_COUNTER_AT_RANGE, x.rulings)]
    if at_range and at_range[0].answer == "not-possible":
        return [Step.of(StepKind.RULING, f"{D.name} cannot counterattack in melee: the attacker is at "
                        f"{sit.range.value} range", cites=[ids.COUNTERATTACK], rulings=at_range)]
    c_range = (sit.range if sit.range is not Range.MELEE else Range.CLOSE) if c_ranged else Range.MELEE
    csit = Situation(defend=sit.counter_defend, range=c_range, elevation=_SWAPPED[sit.elevation],
                     hostile_within_5ft=sit.range is Range.MELEE, counterattack=False,
                     fight_on=sit.fight_on, setting=sit.setting, sheet_effects=sit.sheet_effects,
                     precipitation=sit.precipitation)
    counter = resolve_exchange(D, A, csit, dice=x.dice, rulings=x.rulings, rules=x.rules, _depth=x.depth + 1)
    x.counter = counter
    x.D, x.A = counter.attacker, counter.defender
    x.engaged += [e for e in counter.engaged if e not in x.engaged]
    x.capped |= counter.capped
    return [Step.of(StepKind.RULE, f"{D.name} counterattacks: 1 AP", counter.outcome, cites=[ids.COUNTERATTACK],
                    rulings=at_range, children=[counter.trace])]


_SWAPPED = {Elevation.ATTACKER: Elevation.DEFENDER, Elevation.DEFENDER: Elevation.ATTACKER,
            Elevation.NONE: Elevation.NONE}


def hit_damage(x: _Exchange) -> list[Step]:
    """The hit's damage: the attack roll (``mastery.hit-damage``; after a failed defense per
    ``mastery.failed-defense-damage``; 0 for a total below 0, ``mastery.negative-attack-total``), plus
    each magic portion with its own type (``.../damage-types#5``, ``mastery.magic-portion-roll``)."""
    uses = [R.ruling_use(R.HIT_DAMAGE, x.rulings)]
    f_use = R.ruling_use(R.FAILED_DEFENSE_DAMAGE, x.rulings) if x.defends else None
    amount, through = hit_amount(x.attack_total, x.defense_total if x.defends else None,
                                 f_use.answer if f_use else "as-passive")
    if through and x.attack_total < 0:
        uses.append(R.ruling_use(R.NEGATIVE_ATTACK_TOTAL, x.rulings))
    main = DamagePortion(amount, x.atk.damage_type, through_resistance=through)
    if f_use is not None:
        steps = [Step.of(StepKind.RULING, "Damage after a failed defense", main.amount, detail=f_use.answer,
                         cites=[ids.PASSIVE_DEFENSE], rulings=[f_use, *uses])]
    else:
        steps = [Step.of(StepKind.RULING, "Passive defense: the attack roll is the damage", main.amount,
                         detail=f"attack total {x.attack_total}: no damage" if amount != x.attack_total else "",
                         cites=[ids.PASSIVE_DEFENSE, ids.ATTACK_ALWAYS_HITS], rulings=uses)]
    magic = x.atk.magic
    x.portions = [main] + [DamagePortion(m.amount, m.type) for m in magic]
    if magic:
        steps.append(Step.of(StepKind.RULING, "Magic portions of the hit", sum(m.amount for m in magic),
                             detail=", ".join(f"{m.amount} {m.type.value}" for m in magic),
                             cites=[ids.DAMAGE_PORTIONS], rulings=[R.ruling_use(R.MAGIC_PORTION_ROLL, x.rulings)]))
    return steps


def armour_durability_health(x: _Exchange) -> list[Step]:
    """Each portion meets armour resistance, then wears durability, then health
    (``.../defense#16``, ``.../health-types#1``); durability or health damage Engages the defender
    with the attacker (``.../additional-combat-rules#3``)."""
    D = x.D
    x.damage = apply_damage(x.portions, armour_resistance=D.armour_resistance, durability=D.durability,
                            health=D.health, rulings=x.rulings, label=f"Damage to {D.name}", rules=x.rules)
    steps = [x.damage.step]
    if x.damage.to_durability or x.damage.to_health:
        x.engaged.append(f"{D.name} with {x.A.name}")
        steps.append(Step.of(StepKind.RULE, f"{D.name} took durability or health damage: Engaged with {x.A.name}",
                             cites=[ids.ENGAGED]))
    return steps


def after_health_damage(x: _Exchange) -> list[Step]:
    """Wounds, reaching 0 health, fighting on, Traumas and going down
    (:func:`~ruleslawyer.rulesets.mastery.death.health_damage_aftermath`). Sets ``hit``."""
    after = health_damage_aftermath(x.D, x.damage, exploded=x.exploded, setting=x.sit.setting,
                                    fight_on=x.sit.fight_on, dice=x.dice, rulings=x.rulings, rules=x.rules)
    x.D, x.traumas = after.target, after.traumas
    x.spell = x.spell or after.spell
    x.outcome = "hit"
    return [after.step]


STAGES = (attack_allowed, attack_costs_ap, trauma_trial, defender_declares, aiming_trial, attack_roll, defense_roll,
          hit_damage, armour_durability_health, after_health_damage)
"""The exchange, stage by stage; it stops at the first stage that sets an outcome. A successful
defense is followed by :func:`counterattack`."""


def _check_exchange(attacker: Combatant, defender: Combatant, atk: Attack | None, sit: Situation, depth: int,
                    rules: Rules, mid_round: bool = False) -> Attack:
    """Refuse an exchange that cannot start (no attack, no AP, an attacker down, the wrong range)."""
    if atk is None:
        raise RulesInputError("attack", "no attack given (pass attack= or set attacker.attack)")
    if depth == 0 and not mid_round:
        attacker.check_round_ap("attacker")
        defender.check_round_ap("defender")
    if attacker.state in (State.UNCONSCIOUS, State.DEAD):
        raise RulesInputError("attacker.state", f"an {attacker.state.value} combatant cannot attack")
    if defender.state is State.DEAD:
        raise RulesInputError("defender.state", "the defender is dead: there is no exchange to resolve "
                                                "(allowed: standing, fighting-on, unconscious)")
    ranged = atk.kind in RANGED_KINDS
    if ranged and sit.range is Range.MELEE:
        raise RulesInputError("situation.range", f"a {atk.kind.value} attack needs a range band: close, moderate or far")
    if not ranged and sit.range is not Range.MELEE:
        raise RulesInputError("situation.range", f"a {atk.kind.value} attack is made at melee range, got {sit.range.value}")
    cost = action_cost("Attack", rules=rules).ap
    if attacker.ap < cost:
        raise RulesInputError("attacker.ap", f"no AP left to attack (an attack costs {cost} AP)")
    return atk


_VALUES = dict(attack_total=None, defense_total=None, aim_total=None, defended=False, damage=0, absorbed=0,
               to_durability=0, to_health=0, engaged=(), traumas=(), spell="", capped=False, counter=None)
_LABEL = {"hit": "Hit", "defended": "Defended", "missed": "Missed", "not-allowed": "Attack not allowed",
          "no-effect": "AP spent with no effect"}


def _result(x: _Exchange, names: tuple[str, str], steps: list[Step]) -> ExchangeResult:
    """The result: the outcome, the totals, where the damage went, AP spent and left."""
    ap = {"attacker": {"spent": x.ap_start["attacker"] - x.A.ap, "left": x.A.ap},
          "defender": {"spent": x.ap_start["defender"] - x.D.ap, "left": x.D.ap}}
    steps.append(Step.of(StepKind.RESULT, "AP spent and left",
                         f"{x.A.name} {ap['attacker']['spent']} spent, {x.A.ap} left; "
                         f"{x.D.name} {ap['defender']['spent']} spent, {x.D.ap} left",
                         cites=[ids.AP_PER_ROUND, ids.USE_IT_OR_LOSE_IT]))
    vals = dict(_VALUES, engaged=tuple(x.engaged), spell=x.spell)
    if x.outcome != "not-allowed":
        vals.update(aim_total=x.aim_total)
    if x.outcome in ("hit", "defended"):
        vals.update(attack_total=x.attack_total, defense_total=x.defense_total, defended=x.defends, capped=x.capped,
                    counter=x.counter)
    if x.outcome == "hit":
        out = x.damage
        vals.update(damage=sum(p.amount for p in x.portions), absorbed=out.absorbed, to_durability=out.to_durability,
                    to_health=out.to_health, traumas=x.traumas)
    trace = Step.of(StepKind.RESULT, f"{names[0]} attacks {names[1]}: {_LABEL[x.outcome]}", children=steps)
    return ExchangeResult(outcome=x.outcome, attacker=x.A, defender=x.D, ap=ap, trace=trace, **vals)


def resolve_exchange(attacker: Combatant, defender: Combatant, situation: Situation | None = None, *,
                     attack: Attack | None = None, dice: Dice | None = None, seed: int | None = None,
                     script: Mapping[str, Any] | None = None, rulings: Mapping[str, str] | None = None,
                     rules: Rules | None = None, mid_round: bool = False, _depth: int = 0) -> ExchangeResult:
    """Resolve one attack against one defender, stage by stage (:data:`STAGES`): whether the attack
    is allowed, its AP, the defender's declaration, the Aiming Trial, the attack roll, the defense
    roll (then a counterattack), the hit's damage, armour, durability and health, and what health
    damage leads to.

    Args:
        attacker, defender: the combatants (AP, health, armour, tiers, state...).
        situation: range, flanking, elevation, the defender's choice to defend, etc.
        attack: the attack profile (default ``attacker.attack``).
        dice: dice to use; else ``Dice(seed=seed, script=script)``. Scripted slots: ``attack``,
            ``defense``, ``aim``, ``endurance``, ``trauma``, ``finger``.
        rulings: ruling overrides (``ruleslawyer rulings --ruleset mastery``).
        rules: the rules database whose tables the exchange reads (default database).
        mid_round: the combatants are part-way through a round of a fight: their AP left may exceed a
            new "1 AP per round" sheet (``mastery.one-ap-trauma-timing``), so it is not checked against it.

    Returns:
        An :class:`ExchangeResult` whose trace cites every step.

    Raises:
        RulesInputError: bad input (no attack, no AP to attack, an unconscious attacker, a ranged
            attack at melee range or a melee attack at a ranged band, bad rulings...).
    """
    sit = situation or Situation()
    rulings = R.check(rulings)
    rules = resolve_rules(rules)
    atk = _check_exchange(attacker, defender, attack or attacker.attack, sit, _depth, rules, mid_round)
    x = _Exchange(attacker, defender, atk, sit, dice or Dice(seed=seed, script=dice_script(script, EXCHANGE_SLOTS)), rulings, rules, _depth,
                  {"attacker": attacker.ap, "defender": defender.ap})
    steps: list[Step] = []
    for stage in STAGES:
        steps += stage(x)
        if x.outcome:
            break
    if x.outcome == "defended":
        steps += counterattack(x)
    return _result(x, (attacker.name, defender.name), steps)


def exchange_from_dict(data: Mapping[str, Any], *, seed: int | None = None,
                       rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> ExchangeResult:
    """Resolve an exchange from the JSON input format (see ``ruleslawyer exchange mastery --schema``).

    Keys: ``attacker``, ``defender`` (Combatant objects; the attacker's ``attack`` is required),
    ``situation`` (optional), ``dice`` (scripted slots, optional), ``seed``, ``rulings``, read strictly
    by :data:`.schema.EXCHANGE`.

    Raises:
        RulesInputError: naming the bad field: an unknown field or dice slot (with a did-you-mean),
            text for a boolean or number, a value past its bound.
    """
    d = EXCHANGE.read(data, "")  # strict: unknown fields, types, bounds, dice slots (dice.atack)
    attacker = Combatant.from_checked(d["attacker"], "attacker")
    defender = Combatant.from_checked(d["defender"], "defender")
    if attacker.attack is None:
        raise RulesInputError("attacker.attack", "required: the attack profile {kind, tier, weapon, ...}")
    sit = Situation(**d.get("situation", {}))
    script = d.get("dice")
    merged = merge_overrides(d.get("rulings"), rulings)
    return resolve_exchange(attacker, defender, sit, seed=seed if seed is not None else d.get("seed"),
                            script=script, rulings=merged, rules=rules)
