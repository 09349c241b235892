"""Exact odds of a Mythras attack–parry exchange: levels, Special Effects, damage per hit location.

Computed from the Mythras engine (:mod:`ruleslawyer.rulesets.mythras`), never a copy of its rules:

- every d100 face is read by the engine's :func:`~ruleslawyer.rulesets.mythras.levels.level_of_success`
  against the skill the engine itself graded (difficulty grades, skills over 100%);
- for each pair of levels, the engine's :func:`~ruleslawyer.rulesets.mythras.exchange.resolve_exchange`
  is run on scripted faces to read what follows: the differential, the Special Effects each side wins
  and chooses (from the db's special-effects table and the sides' preferences), whether the attack
  connects, whether a parry succeeds;
- damage follows the engine's own damage stages: the exchange's damage plan
  (:func:`~ruleslawyer.rulesets.mythras.stages.damage.damage_plan`: Maximise Damage, Impale, the
  Damage Modifier row, Charge and range steps) gives the dice whose distribution is taken, and the
  engine's :func:`~ruleslawyer.rulesets.mythras.stages.protection.protection_stage` (parry Size, Ward
  Location, armour) is run on every damage total and hit location; each pair's scripted run is
  checked against this pipeline, so a change in the engine that the odds do not follow raises an
  error instead of giving wrong odds.

Every table is read from the rules database given as ``rules=`` (default: the default database).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from ruleslawyer.dice import Dice, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, TracedResult

from .core import DEFAULT_TOLERANCE, Dist, check_tolerance, dice_expr, merge_rulings

__all__ = ["MythrasExchangeOdds", "mythras_exchange_odds", "level_odds"]

LEVELS = ("Critical", "Success", "Failure", "Fumble")


def _m() -> SimpleNamespace:
    """The engine modules (imported on first use)."""
    from ruleslawyer.rulesets.mythras import _tables, damage, exchange, ids, levels
    from ruleslawyer.rulesets.mythras.stages import context, grades, protection, ranged
    from ruleslawyer.rulesets.mythras.stages import damage as stage

    return SimpleNamespace(tables=_tables, helpers=damage, ex=exchange, ids=ids, levels=levels, context=context,
                           grades=grades, protection=protection, ranged=ranged, stage=stage)


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


def level_odds(skill: int, *, rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> Dist:
    """P(each level of success) of one d100 roll against ``skill``, read face by face by the engine.

    Worked: skill 63 -> Critical 01-07 (7/100), Success 08-63 (56/100), Failure 64-98 (35/100),
    Fumble 99-00 (2/100). Rule: ``levels-of-success`` in ``rules`` (default database). No ruling
    decides a level; ``rulings`` is checked as every odds function checks it (a Mythras or kit
    ruling id and an allowed answer, else a RulingError naming ``rulings``/``rulings.<id>``).
    """
    check_rulings(rulings, "mythras")
    rules = resolve_rules(rules)
    return Dist.uniform(_m().levels.level_of_success(face, skill, rules=rules)[0].value for face in range(1, 101))


def _classes(skill: int, rules: Rules) -> dict[str, tuple[int, Fraction]]:
    """Level -> (a representative face, probability), faces read by the engine's level_of_success."""
    levels = _m().levels
    out: dict[str, list] = {}
    for face in range(1, 101):
        lvl = levels.level_of_success(face, skill, rules=rules)[0].value
        if lvl not in out:
            out[lvl] = [face, 0]
        out[lvl][1] += 1
    return {k: (v[0], Fraction(v[1], 100)) for k, v in out.items()}


class _Drift(RuntimeError):
    pass


def _read(data, inp, rulings, tolerance):
    """The exchange input, the merged ruling overrides and the tolerance, checked."""
    ex = _m().ex
    layers: list[object] = []
    if data is not None:
        if not isinstance(data, Mapping):
            raise RulesInputError("input", "the input must be a JSON object with 'attacker' and 'defender'")
        layers.append(data.get("rulings"))
        merge_rulings(*layers, rulings)  # both must be objects before the input is read
        for key in ("counter", "longer"):  # a charge met by a counter-attack: two exchanges in turn
            if key in data:
                raise RulesInputError(key, "the odds of a charge met by a counter-attack are not computed; give "
                                           "one exchange (attacker and defender), e.g. the charge without its counter")
        body = {k: v for k, v in data.items() if k not in ("tolerance", "description")}
        inp = ex.ExchangeInput.from_dict(body)
        if "tolerance" in data:
            tolerance = data["tolerance"]
    if inp is None:
        raise RulesInputError("input", "give the exchange input")
    if inp.attacker.fire_mode in (ex.FireMode.BURST, ex.FireMode.FULL_AUTO):
        raise RulesInputError("attacker.fire_mode", "the odds of a burst or full-auto spray (several hits) are "
                                                    "not computed; allowed here: single")
    overrides = merge_rulings(*layers, rulings)
    check_rulings(overrides, "mythras")
    check_tolerance(tolerance)
    return inp, overrides


def mythras_exchange_odds(data: Mapping[str, Any] | None = None, *, inp=None,
                          rulings: Mapping[str, str] | None = None,
                          tolerance: float | Fraction = DEFAULT_TOLERANCE,
                          rules: Rules | None = None) -> MythrasExchangeOdds:
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
        rules: the rules database whose tables are used (default: the default database).

    Raises:
        RulesInputError: bad input, naming the field (as the exchange would).
    """
    rules = resolve_rules(rules)
    m = _m()
    inp, overrides = _read(data, inp, rulings, tolerance)
    probe = m.ex.resolve_exchange(inp, dice=Dice(seed=0, script={"attack": [1], "parry": [1], "evade": [1]}),
                                rulings=overrides, rules=rules)
    if probe.attack.effective_skill is None:
        return _hopeless(probe)
    a_skill = probe.attack.effective_skill
    d_skill = probe.defence.effective_skill if probe.defence is not None else None
    slot = probe.defence_kind.value
    levels_step = Step.of(StepKind.RULE, "Levels of success, every d100 face read by the engine",
                          f"attack {a_skill}%" + (f", {slot} {d_skill}%" if d_skill is not None else ", no defence"),
                          cites=[m.ids.EX_ATTACK] + ([m.ids.EX_PARRY if slot == "parry" else m.ids.EVADE]
                                                     if d_skill is not None else [m.ids.EX_NO_PARRY])
                          + [Citation(r.row.unit_id, r.name) for r in m.tables.levels(rules).values()])
    uses: dict[str, RulingUse] = {}
    j = _joint(inp, probe, overrides, rules, uses)
    return _odds(inp, probe, j, levels_step, uses, rules)


def _hopeless(probe) -> MythrasExchangeOdds:
    """The odds of an attack that cannot be attempted: nothing happens."""
    trace = Step.of(StepKind.RESULT, "Odds: the attack cannot be attempted (Hopeless)", 0, children=[probe.trace])
    z = Dist.point(0)
    return MythrasExchangeOdds(None, None, probe.defence_kind.value, Dist({}), z, z, Dist({}),
                               {"attacker": {}, "defender": {}}, Fraction(0), Fraction(0), Dist.point("—"), z, {},
                               Fraction(0), trace)


def _joint(inp, probe, overrides, rules, uses) -> Dist:
    """Sub-distributions of (a_lvl, d_lvl, won_a, won_d, a_fx, d_fx, location, dealt, parried), per
    pair of levels, read from the engine run on a representative face of each level."""
    m = _m()
    kind = probe.defence_kind
    a_cls = _classes(probe.attack.effective_skill, rules)
    d_cls = (_classes(probe.defence.effective_skill, rules) if probe.defence is not None
             else {"Failure": (None, Fraction(1))})
    ctx = m.context.open_exchange(inp, Dice(seed=0), overrides, rules)
    loc_table = m.tables.hit_locations(rules)
    loc_dist = Dist.weighted((r.cells[1], Fraction(r.high - r.low + 1, loc_table.sides)) for r in loc_table.rows)
    pipelines: dict[tuple, tuple[Dist, Any, Dist]] = {}
    joint: list[Dist] = []
    for a_lvl, (a_face, pa) in a_cls.items():
        for d_lvl, (d_face, pd) in d_cls.items():
            script = {"attack": [a_face], "location": [1], "damage": [1] * 64, "damage_modifier": [1] * 64,
                      "stray": [1] * 4}
            if d_face is not None:
                script[kind.value] = [d_face]
            r = m.ex.resolve_exchange(inp, dice=Dice(seed=0, script=script), rulings=overrides, rules=rules)
            a_fx, d_fx = tuple(r.attacker_effects), tuple(r.defender_effects)
            won_a = r.effects_won if r.winner == "attacker" or (r.winner is None and r.effects_won) else 0
            won_d = r.effects_won if r.winner == "defender" else 0
            head = (a_lvl, d_lvl, won_a, won_d, a_fx, d_fx)
            if not r.hit:
                joint.append(Dist({head + ("—", 0, False): pa * pd}))
                continue
            d_level = m.levels.LevelOfSuccess(d_lvl)
            parried = kind.value == "parry" and d_level.succeeded
            key = (a_fx, d_fx, parried)
            if key not in pipelines:
                pipelines[key] = _damage_pipeline(ctx, kind, d_level, a_fx, d_fx, loc_dist, uses)
            dist, post, rolled = pipelines[key]
            # drift guard: the engine's own run must match the pipeline for its faces
            if r.damage != post(r.damage_rolled, r.location) or r.damage_rolled not in rolled.weights():
                raise _Drift(f"odds pipeline disagrees with the engine for {a_lvl} vs {d_lvl}: engine dealt "
                             f"{r.damage} from {r.damage_rolled} at {r.location}")
            joint.append(dist.map(lambda o, h=head: h + o + (parried,)).scaled(pa * pd))
    return Dist.merge(*joint)


def _odds(inp, probe, j: Dist, levels_step: Step, uses, rules) -> MythrasExchangeOdds:
    """The result: every distribution read off the joint one, and the cited trace."""
    ids, tables = _m().ids, _m().tables
    a, d = inp.attacker, inp.defender
    eff_a = j.map(lambda o: o[2])
    # what each side takes, as one outcome per exchange: ("none", "none") is "no Special Effect chosen"
    chosen = j.map(lambda o: (", ".join(dict.fromkeys(o[4])) or "none", ", ".join(dict.fromkeys(o[5])) or "none"))
    effect_chance: dict[str, dict[str, Fraction]] = {"attacker": {}, "defender": {}}
    for o, p in j.items():
        for side, names in (("attacker", o[4]), ("defender", o[5])):
            for name in dict.fromkeys(names):
                effect_chance[side][name] = effect_chance[side].get(name, Fraction(0)) + p
    location = j.map(lambda o: o[6])
    p_hit = j.prob(lambda o: o[6] != "—")
    by_loc = {loc: j.conditional(lambda o, L=loc: o[6] == L).map(lambda o: o[7])
              for loc in location if loc != "—"}
    steps = [levels_step,
             Step.of(StepKind.COMPARE, "Differential and Special Effects (the engine, per pair of levels)",
                     f"attacker {', '.join(f'{k}: {float(v):.3g}' for k, v in eff_a.items())}",
                     cites=[ids.EX_DIFFERENTIAL, ids.EX_CHOOSE_EFFECTS, ids.EFFECTS]),
             Step.of(StepKind.RESULT, "Damage through parry Size and armour, per hit location",
                     f"P(hit) = {float(p_hit):.4g}",
                     cites=[ids.EX_DAMAGE, ids.EX_PARRY_REDUCES, ids.EX_ARMOUR,
                            Citation(tables.hit_locations(rules).id, "hit-location table")],
                     rulings=list(uses.values())),
             Step.of(StepKind.INFO, "Probability mass cut off", f"{float(j.truncated_mass):.3g}",
                     detail="no Mythras die explodes: every outcome is exact")]
    trace = Step.of(StepKind.RESULT, f"Odds: {a.name} attacks {d.name}", f"P(hit) = {float(p_hit):.4g}",
                    children=steps)
    return MythrasExchangeOdds(probe.attack.effective_skill,
                               probe.defence.effective_skill if probe.defence is not None else None,
                               probe.defence_kind.value, j.map(lambda o: (o[0], o[1])), eff_a,
                               j.map(lambda o: o[3]), chosen, effect_chance, p_hit, j.prob(lambda o: o[8]),
                               location, j.map(lambda o: o[7]), by_loc, j.truncated_mass, trace)


def _note(uses: dict[str, RulingUse], steps=(), direct=()) -> None:
    """Record the ruling uses of ``steps`` (and their children; None skipped) and the ``direct`` ones."""
    found = [u for step in steps if step is not None for u in step.ruling_uses()]
    for u in (*[d for d in direct if d is not None], *found):
        uses[u.ruling_id] = u


def _damage_pipeline(ctx, kind, d_level, a_fx, d_fx, loc_dist, uses):
    """(Dist of (location, dealt) given a hit, post(rolled, location) -> dealt, Dist of damage rolled)
    for one set of Special Effects: the engine's damage plan and protection stage (steps 5-7)."""
    m = _m()
    plan = m.stage.damage_plan(ctx, a_fx)
    _note(uses, [*plan.modifier_steps, plan.charge_size_step, plan.force_step], (plan.maximise, plan.impale))
    named = m.stage.chosen_location(ctx, a_fx)
    locs = Dist.point(named) if named is not None else loc_dist
    weapon = Dist.point(ctx.weapon_dice.max) if plan.maximise else dice_expr(ctx.weapon_dice)
    if plan.impale_twice:
        weapon = weapon.best_of_two("higher")
    modifier = Dist.point(0)
    if plan.modifier is not None:
        expr = parse_dice(plan.modifier.dice)
        if plan.maximise_modifier:
            modifier = Dist.point(expr.max)
        elif not expr.is_constant:
            modifier = dice_expr(expr)
    total = (weapon + modifier).map(lambda t: m.helpers.floor_zero(t, ctx.overrides)[0])
    total = total.map(lambda t: _long_range(ctx, t, uses))
    parry_size = m.grades.defence_stage(ctx).size
    cache: dict[tuple[int, str], int] = {}

    def post(rolled: int, location: str) -> int:
        k = (rolled, location)
        if k not in cache:
            prot = m.protection.protection_stage(ctx, kind, d_level, parry_size, plan.size, rolled, location,
                                                 a_fx, d_fx)
            _note(uses, prot.steps)
            cache[k] = prot.dealt
        return cache[k]

    return locs.combine(total, lambda loc, t: (loc, post(t, loc))), post, total


def _long_range(ctx, total: int, uses) -> int:
    half, step = _m().ranged.long_range_halving(ctx, total)
    _note(uses, [step])
    return half
