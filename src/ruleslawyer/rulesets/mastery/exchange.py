"""One Mastery exchange, melee or ranged: attack, the defender's choice, defense or passive defense,
damage, what health damage leads to, an optional counterattack, and AP spent and left.

Entry point: :func:`resolve_exchange`. Rules: ``mastery/combat/actions-and-reactions/attack``,
``.../defense``, ``.../triggered-reactions-all-cost-1-ap``, ``mastery/combat/additional-combat-rules``
and ``mastery/combat/death``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from ruleslawyer.dice import Dice, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult, merge_overrides

from . import ids
from . import rulings as R
from .combatant import (PROJECTILE_KINDS, RANGED_KINDS, WEAPON_ATTACK_KINDS, Attack, AttackKind, Combatant,
                        State, Wielding)
from .damage import DamagePortion, apply_damage
from .death import health_damage_aftermath
from .tiers import Edge, roll_tier_die, roll_trial
from .trauma import Trauma, TraumaSetting

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

    def __post_init__(self) -> None:
        for name, cls in (("range", Range), ("elevation", Elevation), ("setting", TraumaSetting)):
            v = getattr(self, name)
            try:
                object.__setattr__(self, name, cls(str(v).lower()))
            except ValueError:
                raise RulesInputError(f"situation.{name}", f"unknown value {v!r}; allowed: "
                                                           f"{', '.join(m.value for m in cls)}") from None
        for name in ("allies_adjacent_to_target", "cover"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise RulesInputError(f"situation.{name}", f"must be a whole number >= 0, got {v!r}")
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise RulesInputError(f"situation.{f.name}", f"must be true or false, got {getattr(self, f.name)!r}")


@dataclass(frozen=True)
class ExchangeResult(TracedResult):
    """The outcome of one exchange.

    Attributes:
        outcome: ``"hit"``, ``"defended"``, ``"missed"`` (failed Aiming Trial) or ``"not-allowed"``.
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


def _roll_attack(dice: Dice, atk: Attack, sit: Situation, rulings, name: str, rules: Rules) -> tuple[int, bool, bool, Step]:
    children: list[Step] = []
    form = _formula_cite(atk.kind)
    formula_rulings = [R.ruling_use(R.SLING_FORMULA, rulings)] if atk.kind is AttackKind.SLING else []
    edges, edge_rulings = _edges_for("attacker", sit.elevation, rulings)
    tier = roll_tier_die(dice, atk.tier, "attack", label=f"Tier {atk.tier} die", explode=True,
                         explode_cites=[ids.ATTACK_EXPLODES], edges=edges, edge_cites=[ids.ELEVATION],
                         rulings=rulings, field="attack.tier", rules=rules)
    children.append(tier.step)
    total = tier.total
    exploded, capped = tier.exploded, tier.capped
    if isinstance(atk.weapon, str):
        expr = parse_dice(atk.weapon)
        wfaces = []
        for term in expr.dice:
            for _ in range(term.count):
                cap = int(R.use(R.EXPLOSION_CAP, rulings))
                r = dice.exploding(term.sides, "attack", cap=cap)
                wfaces.append(r)
                exploded |= r.exploded
                capped |= r.capped
        wtotal = sum(r.total for r in wfaces) + expr.modifier
        children.append(Step.of(StepKind.ROLL, "Fixed weapon dice" if atk.kind is AttackKind.CROSSBOW else "WEA",
                                wtotal, detail=f"{atk.weapon}: " + ", ".join("+".join(map(str, r.faces)) for r in wfaces),
                                cites=[form, ids.ATTACK_EXPLODES],
                                rulings=[R.ruling_use(R.EXPLOSION_CAP, rulings)] if any(r.capped for r in wfaces) else []))
        total += wtotal
    elif atk.weapon:
        children.append(Step.of(StepKind.MODIFIER, "WEA", f"+{atk.weapon}", cites=[form]))
        total += atk.weapon
    if sit.flanking:
        if sit.first_attack_of_ap:
            total += 2
            children.append(Step.of(StepKind.MODIFIER, "Flanking", "+2", cites=[ids.FLANKING]))
        else:
            children.append(Step.of(StepKind.RULE, "Flanking: not the first attack of this AP", "+0",
                                    cites=[ids.FLANKING]))
    if atk.modifiers:
        total += atk.modifiers
        children.append(Step.of(StepKind.MODIFIER, "Modifiers", f"{atk.modifiers:+d}", cites=[form]))
    if edge_rulings:
        children.append(Step.of(StepKind.RULING, "Elevation", cites=[ids.ELEVATION], rulings=edge_rulings))
    step = Step.of(StepKind.ROLL, f"Attack roll ({name}, {atk.kind.value})", total,
                   detail={ids.FORMULA_BOW: "PHY tier die + WEA + modifiers",
                           ids.FORMULA_CROSSBOW: "PER tier die + fixed weapon dice + modifiers"}.get(
                       form, "STR or PHY tier die + WEA + modifiers"),
                   cites=[form, ids.ATTACK_EXPLODES], rulings=formula_rulings, children=children)
    return total, exploded, capped, step


def _roll_defense(dice: Dice, d: Combatant, atk: Attack, sit: Situation, rulings, rules: Rules) -> tuple[int, bool, Step]:
    children: list[Step] = []
    edges, edge_rulings = _edges_for("defender", sit.elevation, rulings)
    edge_cites: list[str | Citation] = [ids.ELEVATION]
    if d.wielding is Wielding.UNARMED and atk.kind in WEAPON_ATTACK_KINDS:
        edges.append(Edge.INFERIORITY)
        edge_cites += [ids.DEFENSE_INFERIORITY, ids.WEAPON_ATTACK]
        children.append(Step.of(StepKind.RULE, "Unarmed defense against a weapon attack: Inferiority",
                                cites=[ids.DEFENSE_INFERIORITY, ids.WEAPON_ATTACK]))
    tier = roll_tier_die(dice, d.defense_tier, "defense", label=f"Tier {d.defense_tier} die", explode=True,
                         explode_cites=[ids.DEFENSE_EXPLODES], edges=edges, edge_cites=edge_cites,
                         rulings=rulings, field=f"{d.name}.defense_tier", rules=rules)
    children.insert(0, Step.of(StepKind.RULE, "Tier die of the wielded melee weapon, or STR or PHY",
                               d.defense_tier, cites=[ids.DEFENSE_WIELDING]))
    children.append(tier.step)
    total = tier.total
    if d.armour_resistance:
        total += d.armour_resistance
        children.append(Step.of(StepKind.MODIFIER, "Armour resistance", f"+{d.armour_resistance}",
                                cites=[ids.FORMULA_DEFENSE, ids.ARMOR_RESISTANCE]))
    if d.shield:
        total += d.shield
        children.append(Step.of(StepKind.MODIFIER, "Shield", f"+{d.shield}", cites=[ids.FORMULA_DEFENSE]))
    if d.defense_modifiers:
        total += d.defense_modifiers
        children.append(Step.of(StepKind.MODIFIER, "Modifiers", f"{d.defense_modifiers:+d}", cites=[ids.FORMULA_DEFENSE]))
    if edge_rulings:
        children.append(Step.of(StepKind.RULING, "Elevation", cites=[ids.ELEVATION], rulings=edge_rulings))
    return total, tier.capped, Step.of(StepKind.ROLL, f"Defense roll ({d.name})", total,
                                       detail="tier die + armour resistance + shield + modifiers",
                                       cites=[ids.FORMULA_DEFENSE, ids.DEFENSE_EXPLODES], children=children)


def resolve_exchange(attacker: Combatant, defender: Combatant, situation: Situation | None = None, *,
                     attack: Attack | None = None, dice: Dice | None = None, seed: int | None = None,
                     script: Mapping[str, Any] | None = None, rulings: Mapping[str, str] | None = None,
                     rules: Rules | None = None, _depth: int = 0) -> ExchangeResult:
    """Resolve one attack against one defender.

    Args:
        attacker, defender: the combatants (AP, health, armour, tiers, state...).
        situation: range, flanking, elevation, the defender's choice to defend, etc.
        attack: the attack profile (default ``attacker.attack``).
        dice: dice to use; else ``Dice(seed=seed, script=script)``. Scripted slots: ``attack``,
            ``defense``, ``aim``, ``endurance``, ``trauma``, ``finger``.
        rulings: ruling overrides (``ruleslawyer rulings --ruleset mastery``).
        rules: the rules database whose tables the exchange reads (default database).

    Returns:
        An :class:`ExchangeResult` whose trace cites every step.

    Raises:
        RulesInputError: bad input (no attack, no AP to attack, an unconscious attacker, a ranged
            attack at melee range or a melee attack at a ranged band, bad rulings...).
    """
    sit = situation or Situation()
    rulings = R.check(rulings)
    rules = resolve_rules(rules)
    atk = attack or attacker.attack
    if atk is None:
        raise RulesInputError("attack", "no attack given (pass attack= or set attacker.attack)")
    if dice is None:
        dice = Dice(seed=seed, script=script)
    if _depth == 0:
        attacker.check_round_ap("attacker")
        defender.check_round_ap("defender")
    if attacker.state in (State.UNCONSCIOUS, State.DEAD):
        raise RulesInputError("attacker.state", f"an {attacker.state.value} combatant cannot attack")
    ranged = atk.kind in RANGED_KINDS
    if ranged and sit.range is Range.MELEE:
        raise RulesInputError("situation.range", f"a {atk.kind.value} attack needs a range band: close, moderate or far")
    if not ranged and sit.range is not Range.MELEE:
        raise RulesInputError("situation.range", f"a {atk.kind.value} attack is made at melee range, got {sit.range.value}")
    A, D = attacker, defender
    steps: list[Step] = []
    ap_start = {"attacker": A.ap, "defender": D.ap}

    def finish(outcome: str, **kw) -> ExchangeResult:
        A2, D2 = kw.pop("A", A), kw.pop("D", D)
        ap = {"attacker": {"spent": ap_start["attacker"] - A2.ap, "left": A2.ap},
              "defender": {"spent": ap_start["defender"] - D2.ap, "left": D2.ap}}
        steps.append(Step.of(StepKind.RESULT, "AP spent and left",
                             f"{A2.name} {ap['attacker']['spent']} spent, {A2.ap} left; "
                             f"{D2.name} {ap['defender']['spent']} spent, {D2.ap} left",
                             cites=[ids.AP_PER_ROUND, ids.USE_IT_OR_LOSE_IT]))
        vals = dict(attack_total=None, defense_total=None, aim_total=None, defended=False, damage=0, absorbed=0,
                    to_durability=0, to_health=0, engaged=(), traumas=(), spell="", capped=False, counter=None)
        vals.update(kw)
        label = {"hit": "Hit", "defended": "Defended", "missed": "Missed", "not-allowed": "Attack not allowed"}[outcome]
        trace = Step.of(StepKind.RESULT, f"{A.name} attacks {D.name}: {label}", children=steps)
        return ExchangeResult(outcome=outcome, attacker=A2, defender=D2, ap=ap, trace=trace, **vals)

    # 1. May the attack be made at all?
    if A.ap < 1:
        raise RulesInputError("attacker.ap", "no AP left to attack (an attack costs 1 AP)")
    if atk.kind in PROJECTILE_KINDS or atk.kind is AttackKind.THROWN:
        thrown_use = R.ruling_use(R.THROWN_PROJECTILE, rulings) if atk.kind is AttackKind.THROWN else None
        projectile = atk.kind in PROJECTILE_KINDS or (thrown_use is not None and thrown_use.answer == "yes")
        if sit.hostile_within_5ft and projectile:
            if atk.kind is AttackKind.CROSSBOW and atk.spanned:
                steps.append(Step.of(StepKind.RULE, "Hostile within 5 ft, but the crossbow is already spanned",
                                     "may fire", detail="it cannot be spanned again while the hostile is that close",
                                     cites=[ids.HOSTILE_WITHIN_5FT]))
            else:
                steps.append(Step.of(StepKind.RULE, "No projectile or sling attack with a hostile within 5 ft",
                                     "not allowed", cites=[ids.HOSTILE_WITHIN_5FT],
                                     rulings=[thrown_use] if thrown_use else []))
                return finish("not-allowed")
        elif thrown_use is not None and sit.hostile_within_5ft:
            steps.append(Step.of(StepKind.RULING, "Hostile within 5 ft: a thrown weapon is not a projectile weapon",
                                 "may throw", cites=[ids.HOSTILE_WITHIN_5FT], rulings=[thrown_use]))
    A = A.with_(ap=A.ap - 1)
    steps.append(Step.of(StepKind.RULE, f"{A.name} attacks", "1 AP", cites=[ids.COST_ATTACK, ids.ATTACK]))
    engaged = [f"{A.name} with {D.name}"]
    steps.append(Step.of(StepKind.RULE, f"{A.name} is Engaged with {D.name}", cites=[ids.ENGAGED]))

    # 2. The defender's choice, declared before the roll.
    defends = False
    spell = ""
    if sit.defend:
        why = ""
        cite: list[Any] = []
        if D.state in (State.UNCONSCIOUS, State.DEAD):
            use = R.ruling_use(R.UNCONSCIOUS_DEFENSE, rulings)
            if D.state is State.DEAD or use.answer == "cannot-defend":
                why, cite = f"{D.name} is {D.state.value}", [ids.GOING_DOWN_UNCONSCIOUS, use]
        if not why and D.ap < 1:
            why, cite = "no AP left", [ids.DEFENSE_NO_AP]
        elif not why and D.wielding is Wielding.PROJECTILE:
            why, cite = "wielding only a projectile weapon or sling", [ids.DEFENSE_PROJECTILE]
        elif not why and ranged and not D.has_shield:
            why, cite = "a ranged attack can be defended only with a shield", [ids.DEFENSE_RANGED_SHIELD]
        if why:
            cites = [c for c in cite if isinstance(c, str)]
            rus = [c for c in cite if not isinstance(c, str)]
            steps.append(Step.of(StepKind.RULE, f"{D.name} cannot defend: {why}", "passive defense",
                                 cites=cites + [ids.PASSIVE_DEFENSE], rulings=rus))
        else:
            defends = True
            D = D.with_(ap=D.ap - 1)
            children = []
            if D.wielding is Wielding.SHIELD:
                children.append(Step.of(StepKind.RULE, "A shield counts as a weapon; not unarmed",
                                        cites=[ids.DEFENSE_SHIELD_WEAPON]))
            steps.append(Step.of(StepKind.RULE, f"{D.name} declares a defense before the roll", "1 AP",
                                 cites=[ids.DEFENSE_DECLARE, ids.DEFENSE, ids.COST_DEFENSE], children=children))
            if D.casting:
                spell = "lost"
                D = D.with_(casting=False)
                steps.append(Step.of(StepKind.RULE, f"{D.name} interrupts the spell being cast to defend: spell lost",
                                     "lost", cites=[ids.DEFENSE_CASTING, ids.CASTING_INTERRUPTED]))
    else:
        steps.append(Step.of(StepKind.RULE, f"{D.name} chooses not to defend", "passive defense",
                             cites=[ids.PASSIVE_DEFENSE, ids.MELEE_HITS if not ranged else ids.ATTACK_ALWAYS_HITS]))

    # 3. Ranged: the Aiming Trial.
    aim_total = None
    if ranged:
        dc = 2 + _RANGE_DC[sit.range] + sit.allies_adjacent_to_target + sit.cover
        parts = ["2"] + ([f"+{_RANGE_DC[sit.range]} {sit.range.value}"] if _RANGE_DC[sit.range] else []) + \
            ([f"+{sit.allies_adjacent_to_target} allies adjacent"] if sit.allies_adjacent_to_target else []) + \
            ([f"+{sit.cover} cover"] if sit.cover else [])
        steps.append(Step.of(StepKind.RULE, "Aiming Trial DC", dc, detail=" ".join(parts),
                             cites=[ids.RANGED_AIM, ids.AIMING_TRIAL] + ([ids.ALLIES] if sit.allies_adjacent_to_target else [])))
        aim_edges: list[Edge] = []
        edge_use = R.ruling_use(R.EDGE_ON_AIMING, rulings) if sit.elevation is not Elevation.NONE else None
        if edge_use is not None:
            if edge_use.answer == "yes":
                aim_edges, _ = _edges_for("attacker", sit.elevation, rulings)
            steps.append(Step.of(StepKind.RULING, "Elevation and the Aiming Trial", edge_use.answer,
                                 cites=[ids.ELEVATION], rulings=[edge_use]))
        aim = roll_trial(dice, A.perception_tier, dc, "aim", label="Aiming Trial", cites=[ids.AIMING_TRIAL],
                         rulings=rulings, natural_rules=True, natural_cites=[ids.AIMING_TRIAL], edges=aim_edges,
                         edge_cites=[ids.ELEVATION], field="attacker.perception_tier", rules=rules)
        steps.append(aim.trace)
        aim_total = aim.total
        if not aim.success:
            if defends:
                use = R.ruling_use(R.DEFENSE_AP_ON_MISS, rulings)
                if use.answer == "refunded":
                    D = D.with_(ap=D.ap + 1)
                steps.append(Step.of(StepKind.RULING, f"{D.name}'s declared defense AP", use.answer,
                                     cites=[ids.DEFENSE_DECLARE], rulings=[use]))
            return finish("missed", A=A, D=D, aim_total=aim_total, defended=False, engaged=tuple(engaged), spell=spell)

    # 4. Attack roll, then the defense roll.
    attack_total, exploded, capped, atk_step = _roll_attack(dice, atk, sit, rulings, A.name, rules)
    steps.append(atk_step)
    defense_total = None
    if defends:
        defense_total, dcap, def_step = _roll_defense(dice, D, atk, sit, rulings, rules)
        capped |= dcap
        steps.append(def_step)
        success = defense_total >= attack_total
        steps.append(Step.of(StepKind.COMPARE, f"Defense {defense_total} vs attack {attack_total}",
                             "defended" if success else "hit",
                             detail="equal to or greater than the attack: the defense succeeds" if success else
                             "lower than the attack: the defense fails",
                             cites=[ids.DEFENSE_TIE, ids.ATTACK_TIE]))
        if success:
            counter = None
            if sit.counterattack:
                if D.ap < 1:
                    steps.append(Step.of(StepKind.RULE, f"{D.name} cannot counterattack: no AP left", cites=[ids.COUNTERATTACK]))
                elif D.attack is None:
                    raise RulesInputError("defender.attack", "a counterattack needs the defender's attack profile")
                elif (D.attack.kind not in RANGED_KINDS and sit.range is not Range.MELEE
                      and R.use(R.MELEE_COUNTER_AT_RANGE, rulings) == "not-possible"):
                    steps.append(Step.of(StepKind.RULING, f"{D.name} cannot counterattack in melee: the attacker is "
                                         f"at {sit.range.value} range", cites=[ids.COUNTERATTACK],
                                         rulings=[R.ruling_use(R.MELEE_COUNTER_AT_RANGE, rulings)]))
                else:
                    c_ranged = D.attack.kind in RANGED_KINDS
                    c_range = (sit.range if sit.range is not Range.MELEE else Range.CLOSE) if c_ranged else Range.MELEE
                    csit = Situation(defend=sit.counter_defend, range=c_range,
                                     elevation={Elevation.ATTACKER: Elevation.DEFENDER,
                                                Elevation.DEFENDER: Elevation.ATTACKER}.get(sit.elevation, Elevation.NONE),
                                     hostile_within_5ft=sit.range is Range.MELEE, counterattack=False,
                                     fight_on=sit.fight_on, setting=sit.setting)
                    counter = resolve_exchange(D, A, csit, dice=dice, rulings=rulings, rules=rules, _depth=_depth + 1)
                    steps.append(Step.of(StepKind.RULE, f"{D.name} counterattacks: 1 AP", counter.outcome,
                                         cites=[ids.COUNTERATTACK], children=[counter.trace]))
                    D, A = counter.attacker, counter.defender
                    engaged += [e for e in counter.engaged if e not in engaged]
                    capped |= counter.capped
            return finish("defended", A=A, D=D, attack_total=attack_total, defense_total=defense_total,
                          aim_total=aim_total, defended=True, engaged=tuple(engaged), spell=spell, capped=capped,
                          counter=counter)

    # 5. The hit lands: damage.
    dmg_use = R.ruling_use(R.HIT_DAMAGE, rulings)
    if defends:
        f_use = R.ruling_use(R.FAILED_DEFENSE_DAMAGE, rulings)
        if f_use.answer == "attack-minus-defense":
            main = DamagePortion(attack_total - defense_total, atk.damage_type, through_resistance=False)
        else:
            main = DamagePortion(attack_total, atk.damage_type)
        steps.append(Step.of(StepKind.RULING, "Damage after a failed defense", main.amount,
                             detail=f_use.answer, cites=[ids.PASSIVE_DEFENSE], rulings=[f_use, dmg_use]))
    else:
        main = DamagePortion(attack_total, atk.damage_type)
        steps.append(Step.of(StepKind.RULING, "Passive defense: the attack roll is the damage", main.amount,
                             cites=[ids.PASSIVE_DEFENSE, ids.ATTACK_ALWAYS_HITS], rulings=[dmg_use]))
    portions = [main] + [DamagePortion(m.amount, m.type) for m in atk.magic]
    if atk.magic:
        steps.append(Step.of(StepKind.RULING, "Magic portions of the hit", sum(m.amount for m in atk.magic),
                             detail=", ".join(f"{m.amount} {m.type.value}" for m in atk.magic),
                             cites=[ids.DAMAGE_PORTIONS], rulings=[R.ruling_use(R.MAGIC_PORTION_ROLL, rulings)]))
    out = apply_damage(portions, armour_resistance=D.armour_resistance, durability=D.durability, health=D.health,
                       rulings=rulings, label=f"Damage to {D.name}", rules=rules)
    steps.append(out.step)
    if out.to_durability or out.to_health:
        engaged.append(f"{D.name} with {A.name}")
        steps.append(Step.of(StepKind.RULE, f"{D.name} took durability or health damage: Engaged with {A.name}",
                             cites=[ids.ENGAGED]))
    after = health_damage_aftermath(D, out, exploded=exploded, setting=sit.setting, fight_on=sit.fight_on,
                                    dice=dice, rulings=rulings, rules=rules)
    steps.append(after.step)
    D = after.target
    return finish("hit", A=A, D=D, attack_total=attack_total, defense_total=defense_total, aim_total=aim_total,
                  defended=defends, damage=sum(p.amount for p in portions), absorbed=out.absorbed,
                  to_durability=out.to_durability, to_health=out.to_health, engaged=tuple(engaged),
                  traumas=after.traumas, spell=spell or after.spell, capped=capped)


def exchange_from_dict(data: Mapping[str, Any], *, seed: int | None = None,
                       rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> ExchangeResult:
    """Resolve an exchange from the JSON input format (see ``ruleslawyer exchange mastery --schema``).

    Keys: ``attacker``, ``defender`` (Combatant objects; the attacker's ``attack`` is required),
    ``situation`` (optional), ``dice`` (scripted slots, optional), ``seed``, ``rulings``.

    Raises:
        RulesInputError: naming the bad field.
    """
    if not isinstance(data, Mapping):
        raise RulesInputError("input", "must be a JSON object")
    extra = sorted(set(data) - {"attacker", "defender", "situation", "dice", "seed", "rulings", "description"})
    if extra:
        raise RulesInputError(extra[0], "unknown field; allowed: attacker, defender, situation, dice, seed, rulings, description")
    for k in ("attacker", "defender"):
        if k not in data:
            raise RulesInputError(k, "required")
    attacker = Combatant.from_dict(data["attacker"], "attacker")
    defender = Combatant.from_dict(data["defender"], "defender")
    if attacker.attack is None:
        raise RulesInputError("attacker.attack", "required: the attack profile {kind, tier, weapon, ...}")
    sit_data = data.get("situation", {}) or {}
    if not isinstance(sit_data, Mapping):
        raise RulesInputError("situation", "must be an object")
    allowed = {f.name for f in fields(Situation)}
    bad = sorted(set(sit_data) - allowed)
    if bad:
        raise RulesInputError(f"situation.{bad[0]}", f"unknown field; allowed: {', '.join(sorted(allowed))}")
    sit = Situation(**sit_data)
    script = data.get("dice")
    if script is not None and not isinstance(script, Mapping):
        raise RulesInputError("dice", "must be an object of slot -> list of faces")
    merged = merge_overrides(data.get("rulings"), rulings)
    return resolve_exchange(attacker, defender, sit, seed=seed if seed is not None else data.get("seed"),
                            script=script, rulings=merged, rules=rules)
