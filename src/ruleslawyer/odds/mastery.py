"""Exact odds for Mastery: tier dice, trials (the Aiming Trial), Startle, and a whole exchange.

Every number comes from the Mastery engine (:mod:`ruleslawyer.rulesets.mastery`), never a copy:

- tier die sides from :func:`~ruleslawyer.rulesets.mastery.tiers.tier_die` (the db's tier-dice
  table and ``mastery.tier-die-above-3``), the explosion cap from ``kit.explosion-cap``;
- trials, the Aiming Trial and Startle are enumerated through the engine's own
  :func:`~ruleslawyer.rulesets.mastery.tiers.roll_trial` / :func:`~ruleslawyer.rulesets.mastery.round.startle`
  / :func:`~ruleslawyer.rulesets.mastery.exchange.resolve_exchange` with every face sequence;
- the exchange's fixed parts (WEA, flanking, shield, armour resistance, modifiers, edges such as
  Dominance or Inferiority) are read by running
  :func:`~ruleslawyer.rulesets.mastery.exchange.resolve_exchange` on scripted faces, and damage goes
  through the engine's :func:`~ruleslawyer.rulesets.mastery.damage.apply_damage` for every amount.

Exploding dice are exact up to the engine's cap; chains too unlikely to matter (by default at most
1e-12 in all) are cut off and the mass cut off is reported with every answer.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from ruleslawyer.dice import Dice, explosion_cap, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, TracedResult

from .core import (DEFAULT_TOLERANCE, Dist, check_tolerance, enumerate_engine, exploding, exploding_support,
                   merge_rulings)

__all__ = [
    "TierDieOdds", "TrialOdds", "StartleOdds", "MasteryExchangeOdds",
    "tier_die_odds", "trial_odds", "aiming_trial_odds", "startle_odds", "mastery_exchange_odds",
    "MAX_WEAPON_WORK",
]


def _m():
    """The Mastery engine modules (imported lazily: they load db tables on first use)."""
    from ruleslawyer.rulesets.mastery import combatant, damage, exchange, ids, round as round_, tiers
    from ruleslawyer.rulesets.mastery import rulings as R

    return tiers, exchange, combatant, damage, round_, ids, R


def _f(p: Fraction) -> float:
    return float(p)


def _cap(rulings) -> tuple[int, RulingUse]:
    """The kit's explosion cap (``kit.explosion-cap``), as the engine uses it."""
    return explosion_cap(rulings)


def _tol_step(truncated: Fraction, tolerance: Fraction) -> Step:
    return Step.of(StepKind.INFO, "Probability mass cut off", f"{float(truncated):.3g}",
                   detail=f"chains of maximum faces less likely than {float(tolerance):.0e} in all are not "
                          "followed; every other outcome is exact")


# --------------------------------------------------------------------------- tier dice


@dataclass(frozen=True)
class TierDieOdds(TracedResult):
    """The distribution of one tier-die roll (after any edge).

    Attributes:
        tier, sides: the tier and its die; explode: whether it explodes.
        edges: the edges applied (Dominance, Impotence, Inferiority).
        distribution: total -> probability (:class:`~ruleslawyer.odds.core.Dist`).
        mean: expected total (float).
        capped_mass: P(the explosion cap stopped a die).
        truncated_mass: probability mass cut off.
        trace: cited steps.
    """

    tier: int
    sides: int
    explode: bool
    edges: tuple[str, ...]
    distribution: Dist
    mean: float
    capped_mass: Fraction
    truncated_mass: Fraction
    trace: Step


def _edge_transform(tier: int, edges: Sequence[Any], explode: bool, rulings, rules: Rules) -> tuple[str, int, list[Step]]:
    """How the engine's roll_tier_die applies ``edges``: ("none"|"higher"|"lower", flat bonus).

    Read by rolling the engine on scripted faces: all 1s shows how many dice it rolls and any flat
    bonus; [1, max, 1] shows which of two rolls it keeps.
    """
    tiers, *_ = _m()
    sides, die_step = tiers.tier_die(tier, rulings, rules=rules)
    d1 = Dice(script={"probe": [1] * 8})
    r1 = tiers.roll_tier_die(d1, tier, "probe", label="probe", explode=explode, edges=list(edges), rulings=rulings,
                             rules=rules)
    used = d1.used("probe")
    bonus = r1.total - 1
    steps = [die_step]
    if used == 1 or not edges:
        kind = "none"
    else:
        d2 = Dice(script={"probe": [1, sides, 1, 1, 1, 1]})
        r2 = tiers.roll_tier_die(d2, tier, "probe", label="probe", explode=explode, edges=list(edges),
                                 rulings=rulings, rules=rules)
        kind = "lower" if r2.total - bonus == 1 else "higher"
    # the engine's own edge steps (they carry the edge rulings and citations)
    steps.extend(s for s in r1.step.children[2:])
    return kind, bonus, steps


def _tier_dist(tier: int, explode: bool, edges: Sequence[Any], rulings, tolerance: Fraction, rules: Rules
               ) -> tuple[Dist, int, Fraction, list[Step]]:
    tiers, *_ = _m()
    sides, _ = tiers.tier_die(tier, rulings, rules=rules)
    kind, bonus, steps = _edge_transform(tier, edges, explode, rulings, rules)
    capped = Fraction(0)
    if explode:
        cap, use = _cap(rulings)
        one, info = exploding(sides, cap, tolerance if kind == "none" else tolerance / 2)
        capped = info.capped_mass
        steps.insert(1, Step.of(StepKind.RULING, f"Explodes on {sides}, at most {cap} extra dice", cap,
                                rulings=[use]))
    else:
        from .core import die

        one = die(sides)
    if kind != "none":
        one = one.best_of_two(kind)
        capped = 1 - (1 - capped) ** 2
    return one + bonus, sides, capped, steps


def tier_die_odds(tier: int, *, explode: bool = True, edges: Sequence[str] = (),
                  rulings: Mapping[str, str] | None = None, tolerance: float | Fraction = DEFAULT_TOLERANCE,
                  rules: Rules | None = None) -> TierDieOdds:
    """Distribution of a tier-die roll as the engine rolls it (exploding attack/defense dice).

    Worked: tier 3 rolls a d4 (supplement tier-dice table); exploding, P(total 5) = P(4 then 1) =
    1/16; P(total 4) = 0 (a 4 always rolls again).

    Args:
        tier: 1..10; explode: attack and defense dice explode (``.../attack#11``, ``.../defense#12``);
        edges: "dominance", "impotence", "inferiority" (``mastery.dominance`` etc.);
        rulings: overrides; tolerance: most mass to cut off; rules: the rules database (default database).

    Raises:
        RulesInputError: bad tier, edge or tolerance.
    """
    tiers, _, _, _, _, ids, R = _m()
    tol = check_tolerance(tolerance)
    R.check(rulings)
    rules = resolve_rules(rules)
    try:
        edge_list = [tiers.Edge(str(e).lower()) for e in edges]
    except ValueError:
        raise RulesInputError("edges", f"unknown edge in {list(edges)!r}; allowed: "
                                       f"{', '.join(e.value for e in tiers.Edge)}") from None
    dist, sides, capped, steps = _tier_dist(tier, explode, edge_list, rulings, tol, rules)
    cites = [ids.ATTACK_EXPLODES, ids.DEFENSE_EXPLODES] if explode else []
    trace = Step.of(StepKind.RESULT, f"Tier {tier} die (d{sides}){' exploding' if explode else ''}",
                    f"mean {float(dist.mean()):.4g}", cites=cites,
                    children=steps + [_tol_step(dist.truncated_mass, tol)])
    return TierDieOdds(tier, sides, explode, tuple(e.value for e in edge_list), dist, float(dist.mean()),
                       capped, dist.truncated_mass, trace)


# --------------------------------------------------------------------------- trials


@dataclass(frozen=True)
class TrialOdds(TracedResult):
    """The odds of a trial (tier die against a DC), computed by the engine's ``roll_trial``.

    Attributes:
        tier, dc: as given.
        p_success: P(success); p_always_hit / p_always_miss: P(a natural max / 1 decided it)
            (Aiming Trial only, else 0).
        totals: distribution of the trial total.
        truncated_mass: mass cut off (exploding trial dice only).
        trace: cited steps.
    """

    tier: int
    dc: int
    p_success: Fraction
    p_always_hit: Fraction
    p_always_miss: Fraction
    totals: Dist
    truncated_mass: Fraction
    trace: Step


def _trial(tier: int, dc: int, *, aiming: bool, modifier: int, edges, rulings, tolerance, rules) -> TrialOdds:
    tiers, _, _, _, _, ids, R = _m()
    tol = check_tolerance(tolerance)
    R.check(rulings)
    rules = resolve_rules(rules)
    tiers.check_tier(tier, "tier")
    if isinstance(dc, bool) or not isinstance(dc, int):
        raise RulesInputError("dc", f"must be a whole number, got {dc!r}")
    cites = [ids.AIMING_TRIAL] if aiming else []
    edge_list = [tiers.Edge(str(e).lower()) for e in edges]

    def run(d: Dice):
        r = tiers.roll_trial(d, tier, dc, "trial", label="trial", cites=cites, rulings=rulings,
                             modifier=modifier, natural_rules=aiming, natural_cites=cites, edges=edge_list,
                             rules=rules)
        return (r.success, r.always, r.total)

    dist = enumerate_engine(run, tolerance=tol)
    p_s = dist.prob(lambda o: o[0])
    p_hit = dist.prob(lambda o: o[1] == "hit")
    p_miss = dist.prob(lambda o: o[1] == "miss")
    totals = dist.map(lambda o: o[2])
    explode = R.ruling_use(R.TRIAL_DICE_EXPLODE, rulings)
    tie = R.ruling_use(R.TRIAL_TIE, rulings)
    children = [Step.of(StepKind.RULE, "Every face sequence rolled through the engine's trial", f"{len(dist)} distinct results",
                        rulings=[explode, tie], cites=cites)]
    if aiming:
        children.append(Step.of(StepKind.RULE, "A 1 always misses, a max roll always hits",
                                f"{float(p_hit):.4g} / {float(p_miss):.4g}", cites=[ids.AIMING_TRIAL]))
    children.append(_tol_step(dist.truncated_mass, tol))
    label = "Aiming Trial" if aiming else "Trial"
    trace = Step.of(StepKind.RESULT, f"{label}: tier {tier} vs DC {dc}", f"P(success) = {float(p_s):.4g}",
                    cites=cites, children=children)
    return TrialOdds(tier, dc, p_s, p_hit, p_miss, totals, dist.truncated_mass, trace)


def trial_odds(tier: int, dc: int, *, modifier: int = 0, edges: Sequence[str] = (),
               rulings: Mapping[str, str] | None = None, tolerance: float | Fraction = DEFAULT_TOLERANCE,
               rules: Rules | None = None) -> TrialOdds:
    """P(success) of a trial: the tier die (+ modifier) against ``dc`` (``mastery.trial-tie``:
    equal succeeds by default; ``mastery.trial-dice-explode``: no by default).

    Worked: tier 1 (d2) vs DC 2: faces 1, 2; 2 = DC succeeds -> 1/2.
    """
    return _trial(tier, dc, aiming=False, modifier=modifier, edges=edges, rulings=rulings, tolerance=tolerance,
                  rules=rules)


def aiming_trial_odds(perception_tier: int, dc: int = 2, *, edges: Sequence[str] = (),
                      rulings: Mapping[str, str] | None = None,
                      tolerance: float | Fraction = DEFAULT_TOLERANCE, rules: Rules | None = None) -> TrialOdds:
    """The Aiming Trial (``mastery/combat/actions-and-reactions/attack#5``): the Perception tier die
    against ``dc`` (2, +1 Moderate, +3 Far, +1 per ally adjacent to the target, + cover); a 1 always
    misses, a max roll always hits.

    Worked: tier 3 (d4) at DC 5 (Far): 1 misses; 2, 3 fail; 4 is a max roll and hits -> 1/4.
    """
    return _trial(perception_tier, dc, aiming=True, modifier=0, edges=edges, rulings=rulings, tolerance=tolerance,
                  rules=rules)


@dataclass(frozen=True)
class StartleOdds(TracedResult):
    """Startle outcomes (``mastery/combat/startle-and-ambush``), computed by the engine's ``startle``.

    Attributes:
        agility_tier, perception_tier, dc: as given.
        outcomes: condition ("" = no effect, "Dazed", "Stunned", "Paralyzed") -> probability.
        p_success: P(no effect).
        totals: distribution of the Startle total (the two dice added).
        truncated_mass: mass cut off (exploding trial dice only).
        trace: cited steps.
    """

    agility_tier: int
    perception_tier: int
    dc: int
    outcomes: Dist
    p_success: Fraction
    totals: Dist
    truncated_mass: Fraction
    trace: Step


def startle_odds(agility_tier: int, perception_tier: int, *, dc: int | None = None, ambush_dc: int | None = None,
                 rulings: Mapping[str, str] | None = None,
                 tolerance: float | Fraction = DEFAULT_TOLERANCE, rules: Rules | None = None) -> StartleOdds:
    """Odds of each Startle result: no effect, Dazed (failed), Stunned (by 3-4), Paralyzed (by 5+).

    Worked: tiers 1 and 1 (d2 + d2) against DC 6: totals 2 (1/4), 3 (1/2), 4 (1/4); failed by 4
    -> Stunned 1/4, by 3 -> Stunned 1/2, by 2 -> Dazed 1/4.
    """
    tiers, _, _, _, round_, ids, R = _m()
    tol = check_tolerance(tolerance)
    R.check(rulings)
    rules = resolve_rules(rules)

    def run(d: Dice):
        r = round_.startle(d, agility_tier=agility_tier, perception_tier=perception_tier, dc=dc,
                           ambush_dc=ambush_dc, rulings=rulings, rules=rules)
        return (r.condition, r.total, r.dc)

    dist = enumerate_engine(run, tolerance=tol)
    the_dc = next(iter(dist))[2]
    outcomes = dist.map(lambda o: o[0])
    totals = dist.map(lambda o: o[1])
    uses = [R.ruling_use(R.STARTLE_ROLL, rulings), R.ruling_use(R.TRIAL_TIE, rulings),
            R.ruling_use(R.TRIAL_DICE_EXPLODE, rulings)]
    children = [Step.of(StepKind.RULE, "Every face sequence rolled through the engine's Startle trial", f"{len(dist)} distinct results",
                        cites=[ids.STARTLE_TRIAL, ids.AMBUSH_DC if ambush_dc is not None else ids.STARTLE_DC],
                        rulings=uses)]
    for cond, cite in (("Dazed", ids.STARTLE_DAZED), ("Stunned", ids.STARTLE_STUNNED),
                       ("Paralyzed", ids.STARTLE_PARALYZED)):
        children.append(Step.of(StepKind.RESULT, cond, f"{float(outcomes[cond]):.4g}", cites=[cite]))
    children.append(_tol_step(dist.truncated_mass, tol))
    trace = Step.of(StepKind.RESULT, f"Startle: tiers {agility_tier} + {perception_tier} vs DC {the_dc}",
                    f"P(no effect) = {float(outcomes['']):.4g}", cites=[ids.STARTLE_TRIAL], children=children)
    return StartleOdds(agility_tier, perception_tier, the_dc, outcomes, outcomes[""], totals, dist.truncated_mass,
                       trace)


# --------------------------------------------------------------------------- the exchange


@dataclass(frozen=True)
class MasteryExchangeOdds(TracedResult):
    """Exact odds of one Mastery exchange (the counterattack, if any, is not included).

    Attributes:
        outcomes: "hit", "defended", "missed" (failed Aiming Trial), "not-allowed" -> probability.
        p_hit: P(the hit lands); p_defense_holds: P(an active defense succeeds) (ties go to the
            defender, ``.../defense#13``); p_aim: P(the Aiming Trial succeeds) (1 in melee).
        defends: whether the defender makes an active defense (else passive defense).
        attack_totals, defense_totals: distributions of the two rolls (defense None when passive).
        damage: total damage of the hit (all portions; 0 when it does not land).
        to_durability, to_health: damage reaching durability and health after armour resistance
            (0 when the hit does not land).
        health: the defender's current health; p_zero_health: P(this exchange takes them to 0
            health) (None when already at 0).
        truncated_mass: mass cut off.
        trace: cited steps.
    """

    outcomes: Dist
    p_hit: Fraction
    p_defense_holds: Fraction
    p_aim: Fraction
    defends: bool
    attack_totals: Dist | None
    defense_totals: Dist | None
    damage: Dist
    to_durability: Dist
    to_health: Dist
    health: int
    p_zero_health: Fraction | None
    truncated_mass: Fraction
    trace: Step

    def p_zero_health_at(self, health: int) -> Fraction:
        """P(reaching 0 health) had the defender ``health`` left (health damage >= health)."""
        if health < 1:
            raise RulesInputError("health", f"must be a whole number >= 1, got {health!r}")
        return self.to_health.prob(lambda h: h >= health)

    def summary(self) -> dict[str, float]:
        """The headline probabilities as floats."""
        return {"p_hit": _f(self.p_hit), "p_defense_holds": _f(self.p_defense_holds), "p_aim": _f(self.p_aim),
                "p_zero_health": None if self.p_zero_health is None else _f(self.p_zero_health),
                "truncated_mass": _f(self.truncated_mass)}


def _parse(data: Mapping[str, Any]):
    _, exchange, combatant, *_ = _m()
    if not isinstance(data, Mapping):
        raise RulesInputError("input", "must be a JSON object")
    extra = sorted(set(data) - {"attacker", "defender", "situation", "dice", "seed", "rulings", "description",
                                "tolerance"})
    if extra:
        raise RulesInputError(extra[0], "unknown field; allowed: attacker, defender, situation, rulings, "
                                        "description, tolerance (dice and seed are ignored)")
    for k in ("attacker", "defender"):
        if k not in data:
            raise RulesInputError(k, "required")
    attacker = combatant.Combatant.from_dict(data["attacker"], "attacker")
    defender = combatant.Combatant.from_dict(data["defender"], "defender")
    if attacker.attack is None:
        raise RulesInputError("attacker.attack", "required: the attack profile {kind, tier, weapon, ...}")
    sit_data = data.get("situation", {}) or {}
    if not isinstance(sit_data, Mapping):
        raise RulesInputError("situation", "must be an object")
    allowed = {f.name for f in fields(exchange.Situation)}
    bad = sorted(set(sit_data) - allowed)
    if bad:
        raise RulesInputError(f"situation.{bad[0]}", f"unknown field; allowed: {', '.join(sorted(allowed))}")
    return attacker, defender, exchange.Situation(**sit_data)


MAX_WEAPON_WORK = 5_000_000
"""Most work the exact attack total may take: over the attack's dice in turn (the tier die, then each
weapon die), the number of totals reached so far times the totals of the next die, added up.

When damage is the attack minus the defense (``mastery.failed-defense-damage``), each pair of attack
and defense totals counts as one step more.

Exact enumeration grows with the square of the number of weapon dice and of their size: within the
bound (at most a few seconds) are, at the default tolerance and a tier 3 attack, up to ``49d4``,
``35d6``, ``25d10``, ``15d20``, ``4d100`` or ``1d10000``; more (``5d100``, ``2d10000``, ``100d100``)
is refused with a :class:`RulesInputError` naming ``attacker.attack.weapon`` (a larger tolerance cuts
off more chains and allows a little more). ``ruleslawyer exchange mastery`` rolls any weapon dice.
"""


def _check_weapon_work(wexpr, weapon: str, tier_sides: int, defense_sides: int | None, cap: int,
                       tol: Fraction) -> None:
    """Refuse weapon dice whose exact attack total would exceed :data:`MAX_WEAPON_WORK`.

    Estimated before anything is rolled (the engine is never probed with such dice), from the
    exact number of totals of each exploding die (:func:`~ruleslawyer.odds.core.exploding_support`,
    at the smallest share of the tolerance a die can get), counting a sum's totals as the two
    counts added less one (an estimate: measured, the allowed extremes take under 2 s).
    ``defense_sides`` is given when damage is the attack minus the defense
    (``mastery.failed-defense-damage``): every pair of attack and defense totals is then sent
    through the damage rules, which counts as work too.
    """
    tol_each = tol / (wexpr.dice_count + 4)
    running = exploding_support(tier_sides, cap, tol_each)
    work = 0
    sizes = [exploding_support(t.sides, cap, tol_each) for t in wexpr.dice]
    steps = [(one, term.count) for one, term in zip(sizes, wexpr.dice)]
    if defense_sides is not None:
        steps.append((exploding_support(defense_sides, cap, tol_each), 1))
    for one, count in steps:
        for _ in range(count):
            work += running * one
            running += one - 1
            if work > MAX_WEAPON_WORK:
                raise RulesInputError(
                    "attacker.attack.weapon",
                    f"weapon dice {weapon!r} are too many or too large for exact odds: their exploding "
                    f"totals would take more than {MAX_WEAPON_WORK:,} steps to enumerate; allowed are dice "
                    "within that bound, e.g. 25d10, 15d20, 4d100 or 1d10000 against a tier 3 attack "
                    "(ruleslawyer exchange mastery rolls any weapon dice)")


class _Reached(BaseException):
    """The engine rolled a die outside the slots being enumerated."""


class _AimOnlyDice(Dice):
    """Replays the aim faces it is given; any other slot ends the run (the attack is reached)."""

    def __init__(self, inner: Dice) -> None:
        super().__init__(seed=0)
        self._inner = inner

    def roll(self, sides: int, slot: str) -> int:  # noqa: D102
        if slot != "aim":
            raise _Reached(slot)
        return self._inner.roll(sides, slot)


@dataclass
class _ExOdds:
    """What the exchange odds carry from stage to stage (one per call, never shared)."""

    attacker: Any
    defender: Any
    sit: Any
    rulings: dict[str, str]
    rules: Rules
    tol: Fraction
    counter: bool
    cap: int = 0
    cap_use: RulingUse | None = None
    steps: list[Step] = field(default_factory=list)
    wexpr: Any = None
    w_faces: int = 0
    sa: int = 0
    sd: int = 0
    ps: int = 0
    ranged: bool = False
    defends: bool = False
    c_att: int = 0
    c_def: int = 0
    att_keep: str = "none"
    def_keep: str = "none"
    p_aim: Fraction = Fraction(1)
    p_missed: Fraction = Fraction(0)
    att: Dist | None = None
    dfn: Dist | None = None
    joint: Dist | None = None

    @property
    def atk(self):
        return self.attacker.attack


def _probe(o: _ExOdds, att: list[int], dfn: list[int]):
    """Run the engine's exchange on scripted faces: the aim always succeeds, then ``att`` and
    ``dfn`` followed by 1s."""
    _, exchange, *_ = _m()
    d = Dice(seed=0, script={"aim": [o.ps] * 100, "attack": att + [1] * (200 + o.w_faces), "defense": dfn + [1] * 200})
    return exchange.resolve_exchange(o.attacker, o.defender, o.sit, dice=d, rulings=o.rulings, rules=o.rules), d


def _dice_and_bounds(o: _ExOdds) -> None:
    """The dice of the exchange (``.../attack#7-9``, ``.../defense#10``) and the weapon-dice bound."""
    tiers, _, _, _, _, _, R = _m()
    o.cap, o.cap_use = _cap(o.rulings)
    o.ps, _ = tiers.tier_die(o.attacker.perception_tier, o.rulings, "attacker.perception_tier", rules=o.rules)
    o.wexpr = parse_dice(o.atk.weapon) if isinstance(o.atk.weapon, str) else None
    o.w_faces = sum((1 if t.sides > 1 else o.cap + 1) * t.count for t in o.wexpr.dice) if o.wexpr else 0
    o.sa, _ = tiers.tier_die(o.atk.tier, o.rulings, "attack.tier", rules=o.rules)
    o.sd, _ = tiers.tier_die(o.defender.defense_tier, o.rulings, f"{o.defender.name}.defense_tier", rules=o.rules)
    if o.wexpr is not None:
        by_difference = R.ruling_use(R.FAILED_DEFENSE_DAMAGE, o.rulings).answer == "attack-minus-defense"
        _check_weapon_work(o.wexpr, o.atk.weapon, o.sa, o.sd if by_difference else None, o.cap, o.tol)


def structure(o: _ExOdds):
    """Stage 1: read the exchange's fixed parts (constants, edges, passive or active defense) by
    running the engine on scripted faces. Returns the engine's result when the attack is not allowed."""
    *_, ids, R = _m()
    _dice_and_bounds(o)
    r1, d1 = _probe(o, [], [])
    if r1.outcome == "not-allowed":
        return r1
    o.ranged, o.defends = r1.aim_total is not None, r1.defended
    att_rolls = d1.used("attack") - o.w_faces
    o.c_att = r1.attack_total - 1 - o.w_faces
    def_rolls = d1.used("defense") if o.defends else 0
    o.c_def = (r1.defense_total - 1) if o.defends else 0
    if att_rolls == 2 or def_rolls == 2:
        r2, _ = _probe(o, [1, o.sa] if att_rolls == 2 else [], [1, o.sd] if def_rolls == 2 else [])
        if att_rolls == 2:
            o.att_keep = "lower" if r2.attack_total - o.c_att - o.w_faces == 1 else "higher"
        if def_rolls == 2:
            o.def_keep = "lower" if r2.defense_total - o.c_def == 1 else "higher"
    kind = o.atk.kind.value
    o.steps.append(Step.of(
        StepKind.INFO, "Exchange structure read from the engine (scripted faces)",
        f"attack: tier d{o.sa}{' x2 keep ' + o.att_keep if o.att_keep != 'none' else ''} "
        f"{'+ ' + o.atk.weapon + ' ' if o.wexpr else ''}{o.c_att:+d}; "
        + (f"defense: tier d{o.sd}{' x2 keep ' + o.def_keep if o.def_keep != 'none' else ''} {o.c_def:+d}"
           if o.defends else "passive defense"),
        cites=[{"bow": ids.FORMULA_BOW, "crossbow": ids.FORMULA_CROSSBOW}.get(kind, ids.FORMULA_MELEE)]
        + ([ids.FORMULA_DEFENSE] if o.defends else [ids.PASSIVE_DEFENSE])))
    return None


def aiming(o: _ExOdds) -> None:
    """Stage 2: the Aiming Trial (``.../attack#4-5``), every face through the exchange itself."""
    _, exchange, _, _, _, ids, _ = _m()
    if not o.ranged:
        return

    def aim_run(d: Dice):
        try:
            r = exchange.resolve_exchange(o.attacker, o.defender, o.sit, dice=_AimOnlyDice(d), rulings=o.rulings,
                                          rules=o.rules)
        except _Reached:
            return "aim-success"
        return r.outcome

    aim = enumerate_engine(aim_run, tolerance=o.tol)
    o.p_aim = aim.prob("aim-success") + aim.prob(lambda v: v not in ("aim-success", "missed"))
    o.p_missed = aim.prob("missed")
    o.steps.append(Step.of(StepKind.RESULT, "Aiming Trial (every face through the engine)", f"{float(o.p_aim):.4g}",
                           cites=[ids.RANGED_AIM, ids.AIMING_TRIAL]))


def totals(o: _ExOdds) -> None:
    """Stage 3: the attack and defense totals, exploding on a max roll (``.../attack#11``,
    ``.../defense#12``); each exploding die may cut off its share of the tolerance."""
    _, _, _, _, _, ids, _ = _m()
    n_dice = (2 if o.att_keep != "none" else 1) + (o.wexpr.dice_count if o.wexpr else 0) \
        + ((2 if o.def_keep != "none" else 1) if o.defends else 0)
    tol_each = o.tol / n_dice
    one_a, _ = exploding(o.sa, o.cap, tol_each)
    att = one_a.best_of_two(o.att_keep) if o.att_keep != "none" else one_a
    if o.wexpr is not None:
        from .core import dice_expr

        att = att + dice_expr(o.wexpr, explode_cap=o.cap, tolerance=tol_each)
        att = att + (-o.wexpr.modifier)  # the weapon's constant is already in c_att
    o.att = att + o.c_att
    o.steps.append(Step.of(StepKind.ROLL, "Attack total", f"mean {float(o.att.mean()):.4g}",
                           cites=[ids.ATTACK_EXPLODES], rulings=[o.cap_use]))
    if o.defends:
        one_d, _ = exploding(o.sd, o.cap, tol_each)
        o.dfn = (one_d.best_of_two(o.def_keep) if o.def_keep != "none" else one_d) + o.c_def
        o.steps.append(Step.of(StepKind.ROLL, "Defense total", f"mean {float(o.dfn.mean()):.4g}",
                               cites=[ids.DEFENSE_EXPLODES, ids.FORMULA_DEFENSE], rulings=[o.cap_use]))


def _lander(o: _ExOdds, largest: int, through: bool):
    """``land(amount, through) -> (damage, to durability, to health, health after)`` through the
    engine's :func:`~ruleslawyer.rulesets.mastery.damage.apply_damage`.

    Past armour resistance + durability + health, one more point of damage is one more point of
    health damage: the engine is asked for every amount up to there, and for ``largest`` (which
    must match the straight line); a mismatch falls back to asking it for every amount.
    """
    damage = _m()[3]
    d = o.defender
    magic = [damage.DamagePortion(m.amount, m.type) for m in o.atk.magic]
    magic_total = sum(m.amount for m in o.atk.magic)

    def engine(amount: int, thru: bool) -> tuple[int, int, int, int]:
        out = damage.apply_damage([damage.DamagePortion(amount, o.atk.damage_type, through_resistance=thru)] + magic,
                                  armour_resistance=d.armour_resistance, durability=d.durability, health=d.health,
                                  rulings=o.rulings, rules=o.rules)
        return (amount + magic_total, out.to_durability, out.to_health, out.health)

    knee = d.armour_resistance + d.durability + d.health + 1
    straight = None
    if largest > knee:
        base, far = engine(knee, through), engine(largest, through)
        k = largest - knee
        straight = base if far == (base[0] + k, base[1], base[2] + k, base[3]) else None
    cache: dict[tuple[int, bool], tuple[int, int, int, int]] = {}

    def land(amount: int, thru: bool) -> tuple[int, int, int, int]:
        v = cache.get((amount, thru))
        if v is None:
            if amount > knee and straight is not None and thru == through:
                v = (straight[0] + amount - knee, straight[1], straight[2] + amount - knee, straight[3])
            else:
                v = engine(amount, thru)
            cache[(amount, thru)] = v
        return v
    return land


def damage_outcomes(o: _ExOdds) -> None:
    """Stage 4: compare (a defense equal to or greater succeeds, ``.../defense#13``), then each hit's
    damage (:func:`~ruleslawyer.rulesets.mastery.damage.hit_amount`) through armour resistance,
    durability and health."""
    _, _, _, damage, _, _, R = _m()
    answer = R.ruling_use(R.FAILED_DEFENSE_DAMAGE, o.rulings).answer if o.defends else "as-passive"
    by_margin = o.defends and answer == "attack-minus-defense"
    largest = max(o.att.weights()) - (min(o.dfn.weights()) if by_margin else 0)
    land = _lander(o, largest, not by_margin)
    acc: dict[tuple, int] = {}

    def add(key, w):
        acc[key] = acc.get(key, 0) + w

    if o.defends:
        d_keys, _ = o.dfn._tail()
        d_w = o.dfn.weights()
        below = [0]  # cumulative weight of defense totals below each attack total
        for k in d_keys:
            below.append(below[-1] + d_w[k])
        for a, wa in o.att.weights().items():
            i = bisect.bisect_left(d_keys, a)
            if by_margin:
                for y in d_keys[:i]:
                    add(("hit",) + land(*damage.hit_amount(a, y, answer)), wa * d_w[y])
            elif below[i]:
                add(("hit",) + land(*damage.hit_amount(a, d_keys[0], answer)), wa * below[i])
        add(("defended", 0, 0, 0, o.defender.health), o.dfn._ge_weight(o.att))
        den = o.att.denominator * o.dfn.denominator
    else:
        for a, wa in o.att.weights().items():
            add(("hit",) + land(*damage.hit_amount(a, None)), wa)
        den = o.att.denominator
    parts = [Dist._raw(acc, den).scaled(o.p_aim)]
    if o.ranged:
        parts.append(Dist({("missed", 0, 0, 0, o.defender.health): o.p_missed}))
    o.joint = Dist.merge(*parts)


def _summary(o: _ExOdds) -> MasteryExchangeOdds:
    """The result and the closing steps: P(defense holds), P(health damage), P(0 health)."""
    *_, ids, R = _m()
    joint = o.joint
    outcomes = joint.map(lambda v: v[0])
    to_hp = joint.map(lambda v: v[3])
    p_zero = None if o.defender.health == 0 else joint.prob(lambda v: v[4] == 0)
    p_holds = outcomes["defended"]
    f_use = R.ruling_use(R.FAILED_DEFENSE_DAMAGE, o.rulings) if o.defends else None
    uses = [u for u in (f_use, R.ruling_use(R.HIT_DAMAGE, o.rulings)) if u is not None]
    if min(o.att.weights()) < 0 and (f_use is None or f_use.answer == "as-passive"):
        uses.append(R.ruling_use(R.NEGATIVE_ATTACK_TOTAL, o.rulings))
    o.steps.append(Step.of(StepKind.COMPARE, "Defense equal to or greater than the attack succeeds",
                           f"P(defense holds) = {float(p_holds):.4g}" if o.defends else "passive defense: always hits",
                           cites=[ids.DEFENSE_TIE, ids.ATTACK_TIE] if o.defends else [ids.MELEE_HITS, ids.PASSIVE_DEFENSE]))
    o.steps.append(Step.of(StepKind.RESULT, "Damage through the engine's armour, durability and health rules",
                           f"P(health damage) = {float(to_hp.prob(lambda h: h > 0)):.4g}",
                           cites=[ids.PASSIVE_DEFENSE, ids.ARMOR_RESISTANCE, ids.DURABILITY], rulings=uses))
    if p_zero is not None:
        o.steps.append(Step.of(StepKind.RESULT, f"Reaching 0 health from {o.defender.health}", f"{float(p_zero):.4g}",
                               cites=[ids.REACHING_ZERO]))
    if o.counter:
        o.steps.append(Step.of(StepKind.INFO, "Counterattack not included", f"{float(p_holds):.4g}",
                               detail="after a successful defense the defender may counterattack (1 AP): "
                                      "ask for the odds of that exchange on its own", cites=[ids.COUNTERATTACK]))
    o.steps.append(_tol_step(joint.truncated_mass, o.tol))
    trace = Step.of(StepKind.RESULT, f"Odds: {o.attacker.name} attacks {o.defender.name}",
                    f"P(hit) = {float(outcomes['hit']):.4g}", children=o.steps)
    return MasteryExchangeOdds(outcomes, outcomes["hit"], p_holds, o.p_aim, o.defends, o.att, o.dfn,
                               joint.map(lambda v: v[1]), joint.map(lambda v: v[2]), to_hp, o.defender.health,
                               p_zero, joint.truncated_mass, trace)


def _not_allowed(o: _ExOdds, r) -> MasteryExchangeOdds:
    zero = Dist.point(0)
    trace = Step.of(StepKind.RESULT, "Exchange odds: the attack is not allowed", "not-allowed", children=[r.trace])
    health = o.defender.health
    return MasteryExchangeOdds(Dist.point("not-allowed"), Fraction(0), Fraction(0), Fraction(0), False, None, None,
                               zero, zero, zero, health, None if health == 0 else Fraction(0), Fraction(0), trace)


def mastery_exchange_odds(data: Mapping[str, Any] | None = None, *, attacker=None, defender=None, situation=None,
                          rulings: Mapping[str, str] | None = None,
                          tolerance: float | Fraction = DEFAULT_TOLERANCE,
                          rules: Rules | None = None) -> MasteryExchangeOdds:
    """Exact odds of a Mastery exchange, from the same JSON input as ``ruleslawyer exchange mastery``.

    Stages: :func:`structure` (the exchange's fixed parts, read from the engine), :func:`aiming`
    (the Aiming Trial), :func:`totals` (attack and defense totals), :func:`damage_outcomes` (compare,
    then damage through the engine's armour, durability and health rules).

    Rules followed (through the engine): the Aiming Trial (``.../attack#5``), attack and defense
    formulas (``.../attack#7-9``, ``.../defense#10``), dice exploding on a max roll (``.../attack#11``,
    ``.../defense#12``, cap ``kit.explosion-cap``), a defense equal to or greater than the attack
    succeeds (``.../defense#13``), passive defense and armour resistance, durability then health
    (``.../defense#16``; ``mastery.failed-defense-damage``, ``mastery.hit-damage``), reaching 0 health
    (``mastery/combat/death/reaching-0-health#1``).

    Worked (tier 1 d2 vs tier 1 d2, no modifiers): attack X and defense Y are exploding d2s;
    P(X=1)=1/2, P(X=3)=1/4, P(X=5)=1/8...; P(defense holds) = P(Y >= X) = 1/2*1 + 1/4*1/2 +
    1/8*1/4 + ... = 1/2 + 1/8 + 1/32 + ... = 2/3 (uncapped; the cap changes it by < 1e-12).

    Args:
        data: the exchange input (``attacker``, ``defender``, ``situation``, ``rulings``); or give
            ``attacker``/``defender`` (Combatants) and ``situation`` directly.
        rulings: overrides (merged over ``data["rulings"]``).
        tolerance: most probability mass to cut off (default 1e-12).
        rules: the rules database whose tables the engine reads (default database).

    Raises:
        RulesInputError: bad input, naming the field (as the exchange would).
    """
    _, exchange, _, _, _, _, R = _m()
    layers: list[object] = []
    if data is not None:
        attacker, defender, situation = _parse(data)
        layers.append(data.get("rulings"))
        tolerance = data.get("tolerance", tolerance)
    if attacker is None or defender is None:
        raise RulesInputError("input", "give the exchange input, or attacker and defender")
    rulings = R.check(merge_rulings(*layers, rulings))
    tol = check_tolerance(tolerance)
    if attacker.attack is None:
        raise RulesInputError("attacker.attack", "required: the attack profile {kind, tier, weapon, ...}")
    sit = situation or exchange.Situation()
    # the odds cover the exchange itself; the counterattack is an exchange of its own
    o = _ExOdds(attacker, defender, replace(sit, counterattack=False), rulings, resolve_rules(rules), tol,
                sit.counterattack)
    not_allowed = structure(o)
    if not_allowed is not None:
        return _not_allowed(o, not_allowed)
    for stage in (aiming, totals, damage_outcomes):
        stage(o)
    return _summary(o)


_ = Citation
