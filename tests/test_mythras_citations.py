"""Every id the Mythras and Against the Darkmaster engines cite exists; every ruling they use is registered.

Walks the traces of many random exchanges, Initiative rolls and rounds (seeded, so a failure repeats).
"""

from __future__ import annotations

import random

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb import all_ids
from ruleslawyer.rulesets import darkmaster, mythras
from ruleslawyer.rulesets.darkmaster import ids as dm_ids
from ruleslawyer.rulesets.darkmaster.trs import SequenceInput, sequence_round
from ruleslawyer.rulesets.mythras import ids as my_ids
from ruleslawyer.rulesets.mythras.exchange import ExchangeInput, resolve_exchange
from ruleslawyer.rulesets.mythras.initiative import InitiativeCombatant, roll_initiative
from ruleslawyer.rulesets.mythras.special_effects import effect_names
from ruleslawyer.registry import all_rulings
from ruleslawyer.trace import get_ruling

SIZES = ["Small", "Medium", "Large", "Huge", "Enormous"]
TRAITS = ["cutting", "impaling", "bludgeoning", "shield", "two-handed", "unarmed"]
LOCS = ["Right Leg", "Left Leg", "Abdomen", "Chest", "Right Arm", "Left Arm", "Head"]


@pytest.fixture(scope="module")
def ids():
    return set(all_ids())


def _weapon(rng, ranged=None):
    w = {"name": "w", "damage": rng.choice(["1d8", "1d6+1", "2d6", "1d4", "1d10+2"]), "size": rng.choice(SIZES),
         "traits": rng.sample(TRAITS, rng.randint(0, 3))}
    if ranged:
        w["ranged"] = ranged
    return w


def random_exchange(rng):
    ranged = rng.choice([None, None, None, "bow", "thrown", "firearm"])
    names = list(effect_names())
    a = {"skill": rng.choice([0, 4, 6, 30, 63, 100, 130, 150]), "weapon": _weapon(rng, ranged),
         "str_siz": rng.randint(0, 130), "effects": rng.sample(names, 4), "chosen_location": rng.choice(LOCS),
         "difficulty": rng.choice(["Very Easy", "Easy", "Standard", "Hard", "Formidable", "Herculean"]),
         "outside_style": rng.random() < 0.2}
    if ranged:
        a.update(range=rng.choice(["Close", "Effective", "Long"]), aimed=rng.random() < 0.3,
                 target_still_or_unaware=rng.random() < 0.3)
        if ranged == "firearm" and rng.random() < 0.5:
            a.update(fire_mode=rng.choice(["burst", "full-auto"]), rounds=rng.randint(1, 5))
        if rng.random() < 0.3:
            a.update(into_melee=rng.choice(["Hard", "Formidable"]), adjacent=["X", "Y", "Z"][: rng.randint(0, 3)])
    else:
        a.update(charge=rng.random() < 0.2, quadruped=rng.random() < 0.1)
    d = {"skill": rng.choice([0, 20, 50, 80, 120]), "defence": rng.choice(["parry", "parry", "evade", "none"]),
         "weapon": _weapon(rng), "effects": rng.sample(names, 4), "surprised": rng.random() < 0.1,
         "action_points": rng.choice([0, 1, 2, 2]), "armour": {rng.choice(LOCS): rng.randint(0, 6)},
         "natural_armour": rng.randint(0, 3), "traits": ["Daredevil"] if rng.random() < 0.1 else []}
    if rng.random() < 0.2:
        d["ward"] = {"locations": rng.sample(LOCS, 2), "size": rng.choice(SIZES)}
    return ExchangeInput.from_dict({"attacker": a, "defender": d})


def _overrides(rng, ruleset):
    # rulings that can refuse an input (step-past-end, damage-modifier-ladder) stay at their defaults
    return {r.id: rng.choice(r.answers) for r in all_rulings(ruleset) if rng.random() < 0.3
            and "refuse" not in r.answers}


def test_mythras_chapter_ids_exist(ids):
    assert set(my_ids.ALL) <= ids and len(my_ids.ALL) > 25
    assert set(dm_ids.ALL) <= ids and len(dm_ids.ALL) > 20


def test_ruling_cites_exist(ids):
    for r in (*mythras.rulings.RULINGS, *darkmaster.rulings.RULINGS):
        assert set(r.cites) <= ids, r.id
        assert get_ruling(r.id) is r


def test_exchange_traces_cite_real_ids(ids):
    rng = random.Random(20261129)
    seen_ids, seen_rulings, n = set(), set(), 0
    for i in range(600):
        inp = random_exchange(rng)
        result = resolve_exchange(inp, seed=i, rulings=_overrides(rng, "mythras"))
        seen_ids |= set(result.trace.cited_ids())
        seen_rulings |= set(result.trace.ruling_ids())
        n += result.hit
    missing = seen_ids - ids
    assert not missing, sorted(missing)
    for rid in seen_rulings:
        get_ruling(rid)
    assert n > 50  # the sample really reached the damage steps
    # the sample exercised most of the rules it can cite
    assert len({i for i in seen_ids if i.startswith("mythras/combat/")}) >= 25
    assert len({r for r in seen_rulings if r.startswith("mythras.")}) >= 15


def _uncited(trace):
    """Steps that decide something (roll, modifier, comparison, rule, ruling) yet cite nothing."""
    return [s.label for s in trace.walk() if s.kind.value in ("roll", "modifier", "compare", "rule", "ruling")
            and not s.cites and not s.rulings]


def test_every_deciding_step_cites_a_rule_or_a_ruling():
    rng = random.Random(5)
    for i in range(200):
        assert _uncited(resolve_exchange(random_exchange(rng), seed=i).trace) == []
    for i in range(200):
        try:
            r = sequence_round(random_round(rng), strict=False)
        except RulesInputError:
            continue
        assert _uncited(r.trace) == []


def test_initiative_traces_cite_real_ids(ids):
    rng = random.Random(7)
    for i in range(100):
        cs = [InitiativeCombatant(f"c{j}", rng.randint(5, 8), rng.randint(9, 10), rng.randint(0, 2),
                                  rng.random() < 0.2) for j in range(rng.randint(1, 6))]
        r = roll_initiative(cs, seed=i)
        assert set(r.trace.cited_ids()) <= ids
        for rid in r.trace.ruling_ids():
            get_ruling(rid)


def random_round(rng):
    combatants = []
    for j in range(rng.randint(1, 6)):
        actions = []
        for _ in range(rng.randint(0, 3)):
            kind = rng.choice(["move", "spell", "ranged", "melee", "other"])
            a = {"name": rng.choice(["Act", "Load (2)", "Hold (3)"]) if kind == "other" else "Act",
                 "type": rng.choice(["Full", "Full", "Half", "Free"]), "kind": kind,
                 "readied": rng.random() < 0.1, "continuing": rng.random() < 0.2}
            if kind == "melee":
                a.update(weapon_length=rng.choice(["Hand", "Short", "Long", "Longest", "longsword", "handaxe"]),
                         positional_bonus=rng.random() < 0.4, dashing=rng.random() < 0.2)
            if kind == "spell":
                a.update(instant=rng.random() < 0.3, prepared_rounds=rng.choice([0, 0, 1, 2]))
            if kind == "ranged":
                a.update(reloaded_before=rng.random() < 0.4, thrown_in_hand=rng.random() < 0.2)
            if "(" in a["name"]:
                a.update(interrupted=rng.random() < 0.3)
            actions.append(a)
        combatants.append({"name": f"c{j}", "cmb": rng.randint(-10, 90), "side": rng.choice(["npc", "player"]),
                           "caster_level": rng.randint(0, 3), "spell_casting_bonus": rng.randint(0, 2) * 10,
                           "assessment": rng.choice([None, None, "passed", "failed"]), "parry": rng.choice([0, 10, 30]),
                           "actions": actions})
    return SequenceInput.from_dict({"combatants": combatants})


def test_sequence_traces_cite_real_ids(ids):
    rng = random.Random(99)
    seen_ids, seen_rulings, refusals = set(), set(), 0
    for _ in range(400):
        try:
            r = sequence_round(random_round(rng), rulings=_overrides(rng, "darkmaster"), strict=False)
        except RulesInputError:
            continue
        seen_ids |= set(r.trace.cited_ids())
        seen_rulings |= set(r.trace.ruling_ids())
        refusals += len(r.refusals)
        for p in r.phases:
            for x in p.placements:
                assert x.reason and x.cites
    assert not seen_ids - ids, sorted(seen_ids - ids)
    for rid in seen_rulings:
        get_ruling(rid)
    assert refusals > 20 and len(seen_rulings) >= 8
    assert len(seen_ids & set(dm_ids.ALL)) >= 20  # the rounds reached most of the chapter's rules
