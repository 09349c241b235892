"""What an exchange leaves behind: every change to the fighters, each one a cited trace step.

Damage goes to the location's Hit Points (``the-attack-parry-exchange#10``: "Apply what's left to
the location"); a location's wound follows ruling ``mythras.wound-levels`` and what a Serious or
Major Wound does, rulings ``mythras.serious-wound`` and ``mythras.major-wound``. Special Effects that
last beyond the exchange: an Evade's fall (``charge-evade-outmanoeuvre#2``), Trip Opponent, Disarm
Opponent, Bleed and Impale's stuck weapon (rulings ``mythras.trip-opponent``, ``mythras.disarm-opponent``,
``mythras.bleed``, ``mythras.impaled-weapon``), and Withdraw breaking off (``action-menu-essentials#4``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ruleslawyer.trace import Citation, RulingUse, Step, StepKind

from . import _tables, ids, rulings as _r
from .exchange import ExchangeResult
from .fighter import Status, Wound, wound_level
from .inputs import Defence
from .levels import roll_skill
from .round_context import RoundContext
from .special_effects import IMPALE, WITHDRAW

__all__ = ["is_limb", "spend_ap", "engage", "disengage", "harm", "fall_prone", "put_out", "apply_exchange",
           "TRIP_OPPONENT", "DISARM_OPPONENT", "BLEED"]

TRIP_OPPONENT = "Trip Opponent"
DISARM_OPPONENT = "Disarm Opponent"
BLEED = "Bleed"
_ORDER = list(Wound)


def is_limb(location: str) -> bool:
    """An arm or a leg (the hit locations whose names end in Arm or Leg)."""
    return location.endswith(("Arm", "Leg"))


def _effect_cite(ctx: RoundContext, name: str) -> Citation:
    return Citation(_tables.effects(ctx.rules)[name].row.unit_id, name)


def spend_ap(ctx: RoundContext, name: str, what: str, cites: Iterable[Citation | str]) -> Step:
    """``name`` spends one Action Point on ``what``."""
    f = ctx.get(name)
    ctx.put(replace(f, ap_left=f.ap_left - 1))
    return ctx.note(StepKind.MODIFIER, f"{name} spends 1 AP ({what})", f"{name} spends 1 AP on {what} "
                    f"({f.ap_left - 1} left)", cites, value=f.ap_left - 1)


def engage(ctx: RoundContext, a: str, b: str, cites: Iterable[Citation | str]) -> list[Step]:
    """``a`` and ``b`` become Engaged (``action-menu-essentials#4``), unless they already are."""
    fa, fb = ctx.get(a), ctx.get(b)
    if b in fa.engaged_with or a in fb.engaged_with:
        return []
    ctx.put(replace(fa, engaged_with=(*fa.engaged_with, b)))
    ctx.put(replace(fb, engaged_with=(*fb.engaged_with, a)))
    return [ctx.note(StepKind.RULE, f"{a} and {b} are Engaged", f"{a} and {b} are now Engaged",
                     [ids.ENGAGED, *cites])]


def disengage(ctx: RoundContext, a: str, b: str, why: str, cites: Iterable[Citation | str],
              rulings: Iterable[RulingUse] = ()) -> list[Step]:
    """``a`` and ``b`` are no longer Engaged, because ``why``."""
    fa, fb = ctx.get(a), ctx.get(b)
    if b not in fa.engaged_with and a not in fb.engaged_with:
        return []
    ctx.put(replace(fa, engaged_with=tuple(n for n in fa.engaged_with if n != b)))
    ctx.put(replace(fb, engaged_with=tuple(n for n in fb.engaged_with if n != a)))
    return [ctx.note(StepKind.RULE, f"{a} and {b} are no longer Engaged", f"{a} and {b} are no longer Engaged: "
                     + why, [ids.ENGAGED, *cites], rulings)]


def fall_prone(ctx: RoundContext, name: str, why: str, cites: Iterable[Citation | str],
               rulings: Iterable[RulingUse] = ()) -> list[Step]:
    """``name`` ends prone (no step when already prone)."""
    f = ctx.get(name)
    if f.prone:
        return []
    ctx.put(replace(f, prone=True))
    return [ctx.note(StepKind.RULE, f"{name} is prone", f"{name} is prone: {why}", cites, rulings, value=True)]


def put_out(ctx: RoundContext, name: str, status: Status, why: str, use: RulingUse,
            cites: Iterable[Citation | str] = ()) -> list[Step]:
    """``name`` is incapacitated or dead: no more actions, no AP, and nobody is Engaged with them."""
    f = ctx.get(name)
    if f.status is status or f.status is Status.DEAD:
        return []
    ctx.put(replace(f, status=status, out_by=use.ruling_id, ap_left=0))
    steps = [ctx.note(StepKind.RULING, f"{name} is {status.value}", f"{name} is {status.value}: {why}",
                      cites, [use], value=status.value)]
    for other in list(ctx.get(name).engaged_with):
        steps += disengage(ctx, name, other, f"{name} can no longer strike anyone", [])
    return steps


def harm(ctx: RoundContext, name: str, location: str, amount: int, why: str, cites: Iterable[Citation | str],
         rulings: Iterable[RulingUse] = ()) -> list[Step]:
    """Take ``amount`` Hit Points from ``name``'s ``location``, then what the wound does."""
    f = ctx.get(name)
    if amount <= 0:
        return []
    before = f.hp(location)
    ctx.put(f.with_hp(location, before - amount))
    step = ctx.note(StepKind.MODIFIER, f"{name}'s {location}: {before} → {before - amount} HP",
                    f"{name}'s {location} loses {amount} HP ({why}): {before} → {before - amount}",
                    cites, rulings, value=before - amount)
    return [step, *_wound_steps(ctx, name, location, before)]


def _wound_steps(ctx: RoundContext, name: str, location: str, before: int) -> list[Step]:
    f = ctx.get(name)
    old, new = wound_level(before, f.max_hp(location)), f.wound(location)
    if _ORDER.index(new) <= _ORDER.index(old):
        return []
    use = ctx.ruling(_r.WOUND_LEVELS)
    step = ctx.note(StepKind.RULING, f"{new.value} Wound: {name}'s {location}",
                    f"{name} has a {new.value} Wound to the {location} ({f.hp(location)} of "
                    f"{f.max_hp(location)} HP)", [ids.WOUND_LEVELS_NOTE, ids.EX_ARMOUR], [use], value=new.value)
    if new is Wound.SERIOUS:
        return [step, *_serious(ctx, name, location)]
    if new is Wound.MAJOR:
        return [step, *_major(ctx, name, location)]
    return [step]


def _useless_limb(ctx: RoundContext, name: str, location: str, use: RulingUse) -> list[Step]:
    f = ctx.get(name)
    ctx.put(replace(f, useless=(*f.useless, location)))
    steps = [ctx.note(StepKind.RULING, f"{name}'s {location} is useless", f"{name}'s {location} is useless",
                      [ids.WOUNDS_NOTE], [use])]
    if location.endswith("Leg"):
        return steps + fall_prone(ctx, name, f"the {location} gives way", [ids.WOUNDS_NOTE], [use])
    if location == f.weapon_arm and f.weapon_in_hand:
        ctx.put(replace(ctx.get(name), disarmed=True))
        steps.append(ctx.note(StepKind.RULING, f"{name} drops the {f.weapon.name}",
                              f"{name} drops the {f.weapon.name}", [ids.WOUNDS_NOTE], [use]))
    elif location == f.shield_arm and f.shield is not None:
        steps.append(ctx.note(StepKind.RULING, f"{name}'s {f.shield.name} no longer parries",
                              f"{name}'s {f.shield.name} no longer parries", [ids.WOUNDS_NOTE], [use]))
    return steps


def _endurance(ctx: RoundContext, name: str, use: RulingUse) -> list[Step]:
    """The Endurance roll after a Serious Wound: a failure or a fumble incapacitates."""
    f = ctx.get(name)
    if f.endurance is None:
        return put_out(ctx, name, Status.INCAPACITATED, "no Endurance skill given, counted as a failed roll",
                       use, [ids.WOUNDS_NOTE])
    roll = roll_skill(f.endurance, dice=ctx.dice, slot="endurance", rulings=ctx.overrides,
                      label=f"Endurance ({name})", field=f"combatants.{name}.endurance", rules=ctx.rules)
    passed = roll.level.succeeded
    steps = [ctx.note(StepKind.ROLL, f"Endurance roll ({name})",
                      f"{name} rolls Endurance after the Serious Wound: {roll.roll} against {roll.effective_skill}% "
                      f"— {roll.level.value}" + ("; fights on" if passed else ""), [ids.WOUNDS_NOTE], [use],
                      value=roll.level.value, children=[roll.trace])]
    if not passed:
        steps += put_out(ctx, name, Status.INCAPACITATED, "failed the Endurance roll", use, [ids.WOUNDS_NOTE])
    return steps


def _serious(ctx: RoundContext, name: str, location: str) -> list[Step]:
    use = ctx.ruling(_r.SERIOUS_WOUND)
    if use.answer == "record-only":
        return [ctx.note(StepKind.RULING, "Serious Wound recorded", f"{name}'s Serious Wound is left to the "
                         "Games Master", [ids.WOUNDS_NOTE], [use])]
    steps = _useless_limb(ctx, name, location, use) if is_limb(location) else []
    if not ctx.get(name).active:
        return steps
    if use.answer == "incapacitated":
        return steps + put_out(ctx, name, Status.INCAPACITATED, "a Serious Wound", use, [ids.WOUNDS_NOTE])
    if use.answer == "endurance-roll":
        return steps + _endurance(ctx, name, use)
    return steps


def _major(ctx: RoundContext, name: str, location: str) -> list[Step]:
    use = ctx.ruling(_r.MAJOR_WOUND)
    if use.answer == "record-only":
        return [ctx.note(StepKind.RULING, "Major Wound recorded", f"{name}'s Major Wound is left to the Games "
                         "Master", [ids.WOUNDS_NOTE], [use])]
    dead = use.answer == "trunk-kills" and not is_limb(location)
    return put_out(ctx, name, Status.DEAD if dead else Status.INCAPACITATED,
                   f"a Major Wound to the {location}", use, [ids.WOUNDS_NOTE, ids.EX_ARMOUR])


def _hits(result: ExchangeResult) -> list[tuple[str, int]]:
    if not result.hit:
        return []
    return [(result.location, result.damage), *((h.location, h.dealt) for h in result.extra_hits)]


def _trip(ctx: RoundContext, attacker: str, defender: str, result: ExchangeResult) -> list[Step]:
    use = ctx.ruling(_r.TRIP_OPPONENT)
    cites = [ids.EFFECTS, _effect_cite(ctx, TRIP_OPPONENT)]
    if use.answer != "falls-prone":
        return [ctx.note(StepKind.RULING, "Trip Opponent recorded", f"{attacker}'s Trip Opponent is left to the "
                         "Games Master", cites, [use])]
    return fall_prone(ctx, defender, f"{attacker}'s Trip Opponent", cites, [use])


def _disarm(ctx: RoundContext, attacker: str, defender: str, result: ExchangeResult) -> list[Step]:
    use = ctx.ruling(_r.DISARM_OPPONENT)
    cites = [ids.EFFECTS, _effect_cite(ctx, DISARM_OPPONENT)]
    d = ctx.get(defender)
    if use.answer != "weapon-lost" or not d.weapon_in_hand:
        why = "left to the Games Master" if use.answer != "weapon-lost" else "no weapon in hand to lose"
        return [ctx.note(StepKind.RULING, "Disarm Opponent: no change", f"{attacker}'s Disarm Opponent: {why}",
                         cites, [use])]
    ctx.put(replace(d, disarmed=True))
    return [ctx.note(StepKind.RULING, f"{defender} is disarmed", f"{attacker} knocks the {d.weapon.name} from "
                     f"{defender}'s hand (Ready Weapon to take it up again)", cites, [use], value=True)]


def _bleed(ctx: RoundContext, attacker: str, defender: str, result: ExchangeResult) -> list[Step]:
    use = ctx.ruling(_r.BLEED)
    cites = [ids.EFFECTS, _effect_cite(ctx, BLEED)]
    d = ctx.get(defender)
    if use.answer != "1-hp-per-round" or result.damage <= 0 or result.location in d.bleeding:
        why = ("left to the Games Master" if use.answer != "1-hp-per-round" else
               "the blow drew no blood" if result.damage <= 0 else "the location already bleeds")
        return [ctx.note(StepKind.RULING, "Bleed: no change", f"{attacker}'s Bleed: {why}", cites, [use])]
    ctx.put(replace(d, bleeding=(*d.bleeding, result.location)))
    return [ctx.note(StepKind.RULING, f"{defender}'s {result.location} bleeds",
                     f"{defender}'s {result.location} bleeds: 1 HP lost at the end of every Round", cites, [use])]


def _impale(ctx: RoundContext, attacker: str, defender: str, result: ExchangeResult) -> list[Step]:
    use = ctx.ruling(_r.IMPALED_WEAPON)
    cites = [ids.EFFECTS, _effect_cite(ctx, IMPALE)]
    a, d = ctx.get(attacker), ctx.get(defender)
    if use.answer == "record-only" or result.damage <= 0 or a.weapon.ranged is not None:
        why = ("left to the Games Master" if use.answer == "record-only" else "the blow did not go in"
               if result.damage <= 0 else f"a missile: the {a.weapon.name} stays in {attacker}'s hands")
        return [ctx.note(StepKind.RULING, "Impale: the weapon does not stick", f"{attacker}'s Impale: {why}",
                         cites, [use])]
    ctx.put(replace(a, weapon_stuck_in=defender))
    ctx.put(replace(d, impaled_by=(*d.impaled_by, (attacker, result.location))))
    return [ctx.note(StepKind.RULING, f"{a.weapon.name} stuck in {defender}'s {result.location}",
                     f"{attacker}'s {a.weapon.name} is stuck in {defender}'s {result.location} (Ready Weapon to "
                     "pull it free)", cites, [use])]


_LASTING = {TRIP_OPPONENT: _trip, DISARM_OPPONENT: _disarm, BLEED: _bleed, IMPALE: _impale}
"""The attacker's Special Effects that change the fighters beyond the exchange."""


def apply_exchange(ctx: RoundContext, attacker: str, defender: str, result: ExchangeResult) -> list[Step]:
    """Every change one exchange makes: damage and wounds, an Evade's fall, lasting Special Effects."""
    steps: list[Step] = []
    for location, dealt in _hits(result):
        steps += harm(ctx, defender, location, dealt, f"{attacker}'s blow", [ids.EX_ARMOUR])
    if result.defence_kind is Defence.EVADE and result.prone:
        steps += fall_prone(ctx, defender, "an Evade ends prone unless Arise or a trait says otherwise",
                            [ids.EVADE])
    for name in dict.fromkeys(result.attacker_effects):
        if name in _LASTING:
            steps += _LASTING[name](ctx, attacker, defender, result)
    if WITHDRAW in result.defender_effects:
        steps += disengage(ctx, defender, attacker, f"{defender}'s Withdraw", [ids.EFFECTS, _effect_cite(ctx, WITHDRAW)])
    return steps
