"""Exact odds of a Mythras attack–parry exchange: levels, Special Effects, damage per hit location.

Computed from the Mythras engine (:mod:`ruleslawyer.rulesets.mythras`), never a copy of its rules:

- every d100 face is read by the engine's :func:`~ruleslawyer.rulesets.mythras.levels.level_of_success`
  against the skill the engine itself graded (difficulty grades, skills over 100%);
- for each pair of levels, the engine's :func:`~ruleslawyer.rulesets.mythras.exchange.resolve_exchange`
  is run on scripted faces to read what follows: the differential, the Special Effects each side wins
  and chooses (from the db's special-effects table and the sides' preferences), whether the attack
  connects, whether a parry succeeds;
- damage goes through the engine's helpers and the db tables: weapon dice, the Damage Modifier
  table, Charge and range steps, parry Size (``parry_stops``), Ward Location, armour per location, the
  hit-location table; each pair's scripted run is checked against this pipeline, so a change in the
  engine that the odds do not follow raises an error instead of giving wrong odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ruleslawyer.dice import Dice, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, TracedResult, check_overrides, resolve_ruling

from .core import DEFAULT_TOLERANCE, Dist, check_tolerance, dice_expr, merge_rulings

__all__ = ["MythrasExchangeOdds", "mythras_exchange_odds", "level_odds"]

LEVELS = ("Critical", "Success", "Failure", "Fumble")


def _m():
    from ruleslawyer.rulesets.mythras import _tables, damage, exchange, ids, levels, rulings, special_effects

    return _tables, damage, exchange, ids, levels, rulings, special_effects


@dataclass(frozen=True)
class MythrasExchangeOdds(TracedResult):
    """Exact odds of one Mythras exchange.

    Attributes:
        attack_skill, defence_skill: the skills rolled against (after grades; None when not rolled).
        defence_kind: parry, evade or none (as the engine resolved it).
        levels: (attacker level, defender level) -> probability (a defender who does not or cannot
            defend counts as a Failure).
        attacker_effects, defender_effects: number of Special Effects won -> probability (0-3, plus
            a surprise bonus).
        chosen_effects: (attacker's chosen Effects, defender's chosen Effects) -> probability, each
            side's Effects joined with ", " in the order chosen (from the preferences given), or
            ``"none"``; ``("none", "none")`` is the exchange in which neither side takes a Special
            Effect, so the distribution sums to 1.
        effect_chance: side ("attacker"/"defender") -> Effect -> P(that side takes it): one marginal
            per Effect, not a distribution (several Effects can be taken in one exchange).
        p_hit: P(the attack connects); p_parried: P(a successful parry).
        location: hit location -> probability (unconditional; "—" when nothing connects).
        damage: damage dealt to the location -> probability (0 when nothing connects or gets through).
        damage_by_location: location -> distribution of damage given a hit there.
        truncated_mass: mass cut off (none: no Mythras die explodes).
        trace: cited steps.
    """

    attack_skill: int | None
    defence_skill: int | None
    defence_kind: str
    levels: Dist
    attacker_effects: Dist
    defender_effects: Dist
    chosen_effects: Dist
    effect_chance: dict[str, dict[str, Fraction]]
    p_hit: Fraction
    p_parried: Fraction
    location: Dist
    damage: Dist
    damage_by_location: dict[str, Dist]
    truncated_mass: Fraction
    trace: Step

    def summary(self) -> dict[str, Any]:
        """Headline probabilities as floats."""
        return {"p_hit": float(self.p_hit), "p_parried": float(self.p_parried),
                "mean_damage": float(self.damage.mean()),
                "attacker_effects": self.attacker_effects.as_floats(),
                "defender_effects": self.defender_effects.as_floats(),
                "truncated_mass": float(self.truncated_mass)}


def level_odds(skill: int) -> Dist:
    """P(each level of success) of one d100 roll against ``skill``, read face by face by the engine.

    Worked: skill 63 -> Critical 01-07 (7/100), Success 08-63 (56/100), Failure 64-98 (35/100),
    Fumble 99-00 (2/100).
    """
    *_, levels, _, _ = _m()
    return Dist.uniform(levels.level_of_success(face, skill)[0].value for face in range(1, 101))


def _classes(skill: int) -> dict[str, tuple[int, Fraction]]:
    """Level -> (a representative face, probability), faces read by the engine's level_of_success."""
    *_, levels, _, _ = _m()
    out: dict[str, list] = {}
    for face in range(1, 101):
        lvl = levels.level_of_success(face, skill)[0].value
        if lvl not in out:
            out[lvl] = [face, 0]
        out[lvl][1] += 1
    return {k: (v[0], Fraction(v[1], 100)) for k, v in out.items()}


class _Drift(RuntimeError):
    pass


def mythras_exchange_odds(data: Mapping[str, Any] | None = None, *, inp=None,
                          rulings: Mapping[str, str] | None = None,
                          tolerance: float | Fraction = DEFAULT_TOLERANCE) -> MythrasExchangeOdds:
    """Exact odds of a Mythras exchange, from the same JSON input as ``ruleslawyer exchange mythras``.

    Rules followed (through the engine): the attack and the defence rolls and their levels
    (``mythras/combat/the-attack-parry-exchange#1-2``, supplement levels-of-success), the
    differential (``#3``), Special Effects chosen before damage and location (``#4``), damage and hit
    location (``#5``), parry Size (``#6-9``), armour (``#10``), no parry counts as a Failure (``#11``).

    Worked: attack 50% vs parry 50%, Standard: each roll Critical 5/100, Success 45/100, Failure
    48/100, Fumble 2/100; P(attacker wins 3 Effects) = P(Critical vs Fumble) = 5/100 * 2/100 = 1/1000.

    Args:
        data: the exchange input (``attacker``, ``defender``, ``rulings``); or ``inp`` (an
            :class:`~ruleslawyer.rulesets.mythras.exchange.ExchangeInput`).
        rulings: overrides (merged over ``data["rulings"]``).
        tolerance: most mass to cut off (nothing is cut off: no Mythras die explodes).

    Raises:
        RulesInputError: bad input, naming the field (as the exchange would).
    """
    _tables, dmg, ex, ids, levels, R, fx = _m()
    layers: list[object] = []
    if data is not None:
        if not isinstance(data, Mapping):
            raise RulesInputError("input", "the input must be a JSON object with 'attacker' and 'defender'")
        layers.append(data.get("rulings"))
        merge_rulings(*layers, rulings)  # both must be objects before the input is read
        body = {k: v for k, v in data.items() if k not in ("tolerance", "description")}
        inp = ex.ExchangeInput.from_dict(body)
        if "tolerance" in data:
            tolerance = data["tolerance"]
    if inp is None:
        raise RulesInputError("input", "give the exchange input")
    overrides = merge_rulings(*layers, rulings)
    check_overrides(overrides, "mythras")
    check_tolerance(tolerance)
    a, d = inp.attacker, inp.defender
    steps: list[Step] = []

    # ---- 1. the skills the engine rolls against ------------------------------------------------
    probe = ex.resolve_exchange(inp, dice=Dice(seed=0, script={"attack": [1], "parry": [1], "evade": [1]}),
                                rulings=overrides)
    kind = probe.defence_kind
    a_skill = probe.attack.effective_skill
    if a_skill is None:
        none = Dist.point("—")
        trace = Step.of(StepKind.RESULT, "Odds: the attack cannot be attempted (Hopeless)", 0,
                        children=[probe.trace])
        z = Dist.point(0)
        return MythrasExchangeOdds(None, None, kind.value, Dist({}), z, z, Dist({}), Fraction(0), Fraction(0),
                                   none, z, {}, Fraction(0), trace)
    d_skill = probe.defence.effective_skill if probe.defence is not None else None
    a_cls = _classes(a_skill)
    d_cls = _classes(d_skill) if d_skill is not None else {"Failure": (None, Fraction(1))}
    slot = kind.value
    steps.append(Step.of(StepKind.RULE, "Levels of success, every d100 face read by the engine",
                         f"attack {a_skill}%" + (f", {slot} {d_skill}%" if d_skill is not None else ", no defence"),
                         cites=[ids.EX_ATTACK] + ([ids.EX_PARRY if slot == "parry" else ids.EVADE]
                                                  if d_skill is not None else [ids.EX_NO_PARRY])
                         + [Citation(r.row.unit_id, r.name) for r in _tables.levels().values()]))

    # ---- 2. per pair of levels: what the engine does next --------------------------------------
    weapon_dice = dmg.parse_weapon_dice(a.weapon.damage, "attacker.weapon.damage")
    loc_table = _tables.hit_locations()
    loc_dist = Dist.weighted((r.cells[1], Fraction(r.high - r.low + 1, 20)) for r in loc_table.rows)
    pipeline_cache: dict[tuple, tuple[Dist, Any, Dist]] = {}
    joint: list[Dist] = []  # sub-distributions of (a_lvl, d_lvl, won_a, won_d, fx..., location, dealt)
    uses: dict[str, RulingUse] = {}
    for a_lvl, (a_face, pa) in a_cls.items():
        for d_lvl, (d_face, pd) in d_cls.items():
            script = {"attack": [a_face], "location": [1], "damage": [1] * 64, "damage_modifier": [1] * 64,
                      "stray": [1] * 4}
            if d_face is not None:
                script[slot] = [d_face]
            r = ex.resolve_exchange(inp, dice=Dice(seed=0, script=script), rulings=overrides)
            a_fx, d_fx = tuple(r.attacker_effects), tuple(r.defender_effects)
            won_a = r.effects_won if r.winner == "attacker" or (r.winner is None and r.effects_won) else 0
            won_d = r.effects_won if r.winner == "defender" else 0
            head = (a_lvl, d_lvl, won_a, won_d, a_fx, d_fx)
            p = pa * pd
            if not r.hit:
                joint.append(Dist({head + ("—", 0, False): p}))
                continue
            parried = kind.value == "parry" and levels.LevelOfSuccess(d_lvl).succeeded
            key = (a_fx, d_fx, parried)
            if key not in pipeline_cache:
                pipeline_cache[key] = _damage_pipeline(inp, a_fx, d_fx, parried, weapon_dice, loc_dist, overrides, uses)
            dist, post, rolled = pipeline_cache[key]
            # drift guard: the engine's own run must match the pipeline for its faces
            if r.damage != post(r.damage_rolled, r.location) or r.damage_rolled not in rolled.weights():
                raise _Drift(f"odds pipeline disagrees with the engine for {a_lvl} vs {d_lvl}: engine dealt "
                             f"{r.damage} from {r.damage_rolled} at {r.location}")
            joint.append(dist.map(lambda o, h=head: h + o + (parried,)).scaled(p))
    j = Dist.merge(*joint)

    levels_d = j.map(lambda o: (o[0], o[1]))
    eff_a = j.map(lambda o: o[2])
    eff_d = j.map(lambda o: o[3])
    # what each side takes, as one outcome per exchange: ("none", "none") is "no Special Effect chosen"
    chosen = j.map(lambda o: (", ".join(dict.fromkeys(o[4])) or "none", ", ".join(dict.fromkeys(o[5])) or "none"))
    effect_chance: dict[str, dict[str, Fraction]] = {"attacker": {}, "defender": {}}
    for o, p in j.items():
        for side, names in (("attacker", o[4]), ("defender", o[5])):
            for name in dict.fromkeys(names):
                effect_chance[side][name] = effect_chance[side].get(name, Fraction(0)) + p
    location = j.map(lambda o: o[6])
    damage = j.map(lambda o: o[7])
    p_hit = j.prob(lambda o: o[6] != "—")
    p_parried = j.prob(lambda o: o[8])
    by_loc = {loc: j.conditional(lambda o, L=loc: o[6] == L).map(lambda o: o[7])
              for loc in location if loc != "—"}

    steps.append(Step.of(StepKind.COMPARE, "Differential and Special Effects (the engine, per pair of levels)",
                         f"attacker {', '.join(f'{k}: {float(v):.3g}' for k, v in eff_a.items())}",
                         cites=[ids.EX_DIFFERENTIAL, ids.EX_CHOOSE_EFFECTS, ids.EFFECTS]))
    steps.append(Step.of(StepKind.RESULT, "Damage through parry Size and armour, per hit location",
                         f"P(hit) = {float(p_hit):.4g}",
                         cites=[ids.EX_DAMAGE, ids.EX_PARRY_REDUCES, ids.EX_ARMOUR,
                                Citation(loc_table.id, "hit-location table")],
                         rulings=list(uses.values())))
    steps.append(Step.of(StepKind.INFO, "Probability mass cut off", f"{float(j.truncated_mass):.3g}",
                         detail="no Mythras die explodes: every outcome is exact"))
    trace = Step.of(StepKind.RESULT, f"Odds: {a.name} attacks {d.name}", f"P(hit) = {float(p_hit):.4g}",
                    children=steps)
    return MythrasExchangeOdds(a_skill, d_skill, kind.value, levels_d, eff_a, eff_d, chosen, effect_chance, p_hit,
                               p_parried, location, damage, by_loc, j.truncated_mass, trace)


def _damage_pipeline(inp, a_fx, d_fx, parried, weapon_dice, loc_dist, overrides, uses):
    """(Dist of (location, dealt) given a hit, post(rolled, location) -> dealt) for one set of Effects.

    Follows the exchange's steps 5-7 with the engine's helpers and the db tables.
    """
    _tables, dmg, ex, ids, levels, R, fx = _m()
    a, d = inp.attacker, inp.defender

    def use(ruling) -> RulingUse:
        u = resolve_ruling(ruling.id, overrides)
        uses[ruling.id] = u
        return u

    ranged = a.weapon.ranged is not None
    # location
    if fx.CHOOSE_LOCATION in a_fx:
        locs = Dist.point(dmg.check_location(a.chosen_location, "attacker.chosen_location"))
    else:
        locs = loc_dist
    # weapon dice
    n_max = a_fx.count(fx.MAXIMISE_DAMAGE)
    max_use = use(R.MAXIMISE_DAMAGE) if n_max else None
    if n_max:
        w = Dist.point(weapon_dice.max)
    else:
        w = dice_expr(weapon_dice)
        if fx.IMPALE in a_fx and use(R.IMPALE).answer == "roll-twice-keep-higher":
            w = w.best_of_two("higher")
    # Damage Modifier
    applies = True
    if ranged:
        if a.weapon.damage_modifier_applies is not None:
            applies = a.weapon.damage_modifier_applies
        else:
            ans = use(R.RANGED_DAMAGE_MODIFIER).answer
            applies = ans == "always" or (ans == "bows-and-thrown" and a.weapon.ranged is not ex.RangedKind.FIREARM)
    dm = Dist.point(0)
    if applies:
        dm_row, _ = ex._damage_modifier(a, overrides)
        if a.charge:
            dm_row, _ = dmg.shift_damage_modifier(dm_row, 2 if a.quadruped else 1, "Charge", ids.CHARGE,
                                                  "attacker.str_siz", overrides)
        dm_expr = parse_dice(dm_row.dice)
        if max_use is not None and (n_max >= 2 or max_use.answer == "weapon-and-modifier"):
            dm = Dist.point(dm_expr.max)
        elif not dm_expr.is_constant:
            dm = dice_expr(dm_expr)
    total = (w + dm).map(lambda t: dmg.floor_zero(t, overrides)[0])
    att_size = dmg.size_row(a.weapon.size, "attacker.weapon.size")
    if a.charge:
        att_size, _ = dmg.shift_size(att_size, 1, "Charge", ids.CHARGE, "attacker.weapon.size", overrides)
    if a.range is ex.RangeBand.LONG:
        use(R.HALVING)
        total = total.map(lambda t: dmg.halve(t, overrides)[0])
        att_size, _ = dmg.shift_size(att_size, -1, "Long range", ids.RANGED_LONG, "attacker.weapon.force", overrides)
    d_size = dmg.size_row(d.weapon.size, "defender.weapon.size") if parried else None
    worn_by = dict(d.armour)
    nat_by = None if isinstance(d.natural_armour, int) else dict(d.natural_armour)
    cache: dict[tuple[int, str], int] = {}

    def post(rolled: int, location: str) -> int:
        k = (rolled, location)
        if k in cache:
            return cache[k]
        after = rolled
        if parried:
            if fx.ENHANCE_PARRY in d_fx and use(R.ENHANCE_PARRY).answer == "stop-all":
                after = 0
            else:
                after, st = dmg.parry_stops(d_size, att_size, rolled, overrides)
                for u in st.rulings:
                    uses[u.ruling_id] = u
        if not parried and d.ward is not None and location in d.ward.locations:
            if use(R.WARD_LOCATION).answer == "block-as-parry":
                after, _ = dmg.parry_stops(dmg.size_row(d.ward.size, "defender.ward.size"), att_size, after,
                                           overrides)
        worn = worn_by.get(location, 0)
        natural = d.natural_armour if nat_by is None else nat_by.get(location, 0)
        n_bypass = a_fx.count(fx.BYPASS_ARMOR)
        if n_bypass:
            ans = use(R.BYPASS_ARMOR).answer
            if ans == "all-armour" or n_bypass >= 2:
                worn = natural = 0
            elif ans == "worn-then-natural":
                worn = 0
            else:
                natural = 0
        dealt, _ = dmg.floor_zero(after - (worn + natural), overrides)
        cache[k] = dealt
        return dealt

    dist = locs.combine(total, lambda loc, t: (loc, post(t, loc)))
    return dist, post, total
