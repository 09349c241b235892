"""Every citation id a Mastery trace emits exists in the built database; every ruling is registered."""

import itertools
import random

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.rulesets import mastery as M
from ruleslawyer.registry import all_rulings
from ruleslawyer.trace import get_ruling


@pytest.fixture(scope="module")
def known_ids():
    return set(rulesdb.all_ids())


def _exchange_cases(n: int = 400, seed: int = 1):
    """Random exchanges (consistent inputs) with their situation and result."""
    rng = random.Random(seed)
    kinds = [("melee", "melee"), ("unarmed", "melee"), ("thrown", "close"), ("bow", "moderate"),
             ("crossbow", "far"), ("sling", "close"), ("natural", "melee")]
    types = list(M.DamageType)
    for i in range(n):
        kind, rng_band = kinds[i % len(kinds)]
        atk = M.Attack(kind, tier=rng.randint(1, 4), weapon=rng.choice([0, 1, 2, "1d4", "1d6"]),
                       damage_type=rng.choice(types), spanned=rng.random() < 0.7,
                       modifiers=rng.choice([0, 0, 0, 1, -6]),
                       magic=(M.MagicPortion(1, rng.choice(types)),) if rng.random() < 0.2 else ())
        at_zero = rng.random() < 0.2
        wielding = rng.choice(list(M.Wielding))
        shields = {"unarmed": [None], "projectile": [None], "shield": [0, 1]}.get(wielding, [None, 0, 1])
        d = M.Combatant("D", ap=rng.randint(0, 2), health=0 if at_zero else rng.randint(1, 8),
                        state=rng.choice(["fighting-on", "unconscious"]) if at_zero else "standing",
                        dying_rounds=2 if at_zero else None, durability=rng.randint(0, 3),
                        armour_resistance=rng.randint(0, 2), endurance_tier=rng.randint(1, 4),
                        defense_tier=rng.randint(1, 3), shield=rng.choice(shields),
                        wielding=wielding, casting=rng.random() < 0.2,
                        attack=M.Attack("melee", tier=2, weapon=1))
        a = M.Combatant("A", perception_tier=rng.randint(1, 3), attack=atk, defense_tier=2)
        sit = M.Situation(defend=rng.random() < 0.8, range=rng_band, flanking=rng.random() < 0.3,
                          first_attack_of_ap=rng.random() < 0.7, elevation=rng.choice(list(M.Elevation)),
                          allies_adjacent_to_target=rng.randint(0, 1), cover=rng.randint(0, 1),
                          hostile_within_5ft=rng.random() < 0.2, counterattack=rng.random() < 0.5,
                          fight_on=rng.random() < 0.8, setting=rng.choice(list(M.TraumaSetting)))
        rulings = {r.id: rng.choice(r.answers) for r in all_rulings("mastery") if rng.random() < 0.3}
        rulings.pop("mastery.tier-die-above-3", None)
        yield sit, a, d, M.resolve_exchange(a, d, sit, seed=i, rulings=rulings)


def _sequence_cases(n: int = 60, seed: int = 2):
    rng = random.Random(seed)
    for i in range(n):
        cs = [M.RoundCombatant(f"C{j}", rng.choice(["pcs", "enemies"]),
                               M.Declaration(weapon=rng.choice(list(M.round.WEAPON_EXAMPLES) + [None]),
                                             attack=rng.random() < 0.8,
                                             spell=rng.choice([None, M.Spell("Flame Dart"), M.Spell(magan=2),
                                                               M.Spell(speed="slow")]),
                                             hold_trigger=M.HoldTrigger("x", 1, rng.choice([None, "fast", "slow"]))
                                             if rng.random() < 0.2 else None),
                               unaware=rng.random() < 0.4, agility_tier=rng.randint(1, 3),
                               perception_tier=rng.randint(1, 3)) for j in range(4)]
        round_number = rng.randint(1, 4)
        yield round_number, M.sequence_round(cs, seed=i, round_number=round_number, ambush_dc=rng.choice([None, 7]))


def _traces():
    for face in range(1, 101):
        yield M.roll_trauma(roll=face, finger=(face % 10) + 1, sheet=M.TraumaSheet()).trace
    for ev, st in itertools.product(M.TraumaEvent, M.TraumaSetting):
        yield M.trauma_follows(ev, st).trace
    for *_, r in _exchange_cases():
        yield r.trace
    for _, r in _sequence_cases():
        yield r.trace
    yield M.plan_actions([{"retrieve": w, "items": ["x", "y"], "use": 1} for w in ("quick", "body", "container")]
                         + [{"stow": "a"}, {"draw": "b"}, {"swap": ["a", "b"]}, {"drop": "a"},
                            {"remove_shield": "heater"}, {"remove_shield": "targe"},
                            {"cast": "c", "ap": 2, "components": "container"}, {"cast": "d", "components": "quick"},
                            {"move": 2}, {"attack": 1}, {"triage": True}, {"action": "Reprisal Attack"},
                            {"table": "Torch / Lamp, Light (tinderbox)", "adjust": 2}]).trace
    yield M.plan_actions([{"move": 1}, {"triage": True}]).trace
    yield M.plan_actions([{"move": 1}, {"triage": True}], rulings={"mastery.triage-across-rounds": "one-round"}).trace
    yield M.plan_movement(2, moves=3, normal_squares=3, rugged_squares=2).trace
    yield M.starting_health(4, class_health=2, seed=3).trace
    dying = M.Combatant("X", health=0, state="unconscious", dying_rounds=2)
    fighting = M.Combatant("Y", health=0, state="fighting-on", dying_rounds=2)
    yield M.advance_dying(dying, 3).trace
    yield M.triage(dying).trace
    yield M.triage(dying, adjacent=False).trace
    yield M.triage(dying, medic_ap=1).trace
    yield M.triage(dying, medic_ap=1, ap_spent_before=1).trace
    yield M.triage(fighting).trace
    yield M.triage(dying, medic_ap=1, rulings={"mastery.triage-across-rounds": "one-round"}).trace
    yield from _fight_traces()


def _fight_traces():
    """Every round of the example fights (examples/mastery/fight-*.json), with their scripted dice."""
    import json
    from pathlib import Path

    for path in sorted((Path(__file__).resolve().parent.parent / "examples" / "mastery").glob("fight-*.json")):
        data = json.loads(path.read_text())
        fight = M.MasteryEncounter.start(data["combatants"], seed=data.get("seed"), rulings=data.get("rulings"),
                                         options=data.get("options"))
        for r in data["rounds"]:
            for name, decl in r.get("declare", {}).items():
                fight.declare(name, decl)
            yield fight.resolve_round(r.get("dice")).trace


def test_every_cited_id_exists_and_every_ruling_is_registered(known_ids):
    seen_ids, seen_rulings, n = set(), set(), 0
    for trace in _traces():
        n += 1
        for step in trace.walk():
            seen_ids.update(c.rule_id for c in step.cites)
            for r in step.rulings:
                assert r.answer in get_ruling(r.ruling_id).answers
                seen_rulings.add(r.ruling_id)
    missing = sorted(seen_ids - known_ids)
    assert not missing, missing
    assert n > 500
    # the walk exercised most of the rulings (each one is also tested where it applies)
    assert len(seen_rulings) >= len(all_rulings("mastery")) - 3, sorted(
        {r.id for r in all_rulings("mastery")} - seen_rulings)


def test_every_step_of_an_exchange_cites_or_rules():
    r = M.resolve_exchange(M.Combatant("A", attack=M.Attack("melee", tier=3, weapon=2)),
                           M.Combatant("D", health=3, armour_resistance=1, durability=1, endurance_tier=2),
                           M.Situation(setting="deadly"), seed=5)
    for step in r.trace.walk():
        if step.kind.value in ("rule", "modifier", "compare", "ruling"):
            assert step.cites or step.rulings, step.label


def test_ruling_metadata(known_ids):
    rs = all_rulings("mastery")
    assert len(rs) >= 25
    for r in rs:
        assert r.cites and set(r.cites) <= known_ids, r.id
        assert r.provenance in ("source-silent", "kit default")


AR = "mastery/combat/actions-and-reactions"
_ELEVATION = {f"{AR}/movement/terrain#7"}
_ELEVATION_RULINGS = {"mastery.dominance", "mastery.impotence", "mastery.elevation-lower-defense",
                      "mastery.edge-on-aiming"}
_TT = "mastery/combat/wounds-injuries-and-trauma/trauma-table#"


def _not_in_play(sit, a, d, r) -> list[str]:
    """Cites and rulings of the exchange's trace whose condition is not in the exchange's input."""
    cited = set(r.trace.cited_ids())
    used = set(r.trace.ruling_ids())
    bad = []

    def absent(ids, why):
        bad.extend(f"{i} ({why})" for i in sorted(set(ids) & (cited | used)))

    if sit.elevation == "none":
        absent(_ELEVATION | _ELEVATION_RULINGS, "no elevation")
    if d.wielding != "unarmed":  # Inferiority is only for an unarmed defense (the counter's defender is armed)
        absent({f"{AR}/defense#7", "mastery.inferiority"}, "the defender is not unarmed")
    if not sit.flanking:
        absent({"mastery/combat/additional-combat-rules#2"}, "no flanking")
    if not d.casting:
        absent({f"{AR}/defense#9", f"{AR}/casting#3", "mastery.casting-health-damage"}, "nobody is casting")
    if not a.attack.magic:
        absent({"mastery/combat/additional-combat-rules/damage-types#5", "mastery.magic-portion-roll"}, "no magic portion")
    if not sit.allies_adjacent_to_target:
        absent({"mastery/combat/additional-combat-rules#1"}, "no allies adjacent")
    if sit.setting == "realistic":
        absent({_TT + "3", _TT + "4", "mastery.resist-damage-trial"}, "Realistic")
    if sit.setting == "brutal":
        absent({_TT + "4"}, "Brutal")
    if a.attack.modifiers >= 0:
        absent({"mastery.negative-attack-total"}, "no attack total below 0")
    if not sit.counterattack:
        absent({f"{AR}/triggered-reactions-all-cost-1-ap#1", "mastery.melee-counter-at-range"}, "no counterattack")
    return bad


def test_no_step_cites_a_condition_not_in_play():
    # the whole kind behind "the unarmed defense cites Elevation with no elevation in play": for every
    # random exchange, a cite or ruling tied to a condition appears only when that condition is in the input
    bad = []
    for i, (sit, a, d, r) in enumerate(_exchange_cases()):
        bad += [f"exchange {i}: {b}" for b in _not_in_play(sit, a, d, r)]
    assert not bad, bad[:20]


def test_no_startle_trial_after_round_1():
    # "At the start of combat, each creature that is unaware ... makes a Startle trial": round 2 and later
    # show no fresh trial, no Startle DC and no Startle result
    startle_ids = {"mastery/combat/startle-and-ambush/startle#1", "mastery/combat/startle-and-ambush/ambush#1",
                   *(f"mastery/combat/startle-and-ambush/results#{n}" for n in (1, 2, 3))}
    later = 0
    for round_number, r in _sequence_cases():
        if round_number == 1:
            continue
        later += 1
        assert r.startle == ()
        assert not set(r.trace.cited_ids()) & startle_ids
        assert not any(s.label.startswith("Startle (") for s in r.trace.walk())
    assert later > 20
