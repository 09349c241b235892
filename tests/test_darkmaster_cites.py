"""Against the Darkmaster: every step cites what it claims, and no rule whose condition is not in play.

A seeded sample of rounds (strict=False, so refusals are in it too) is checked step by step: a
placement cites the Dashing Attack only for a Dashing Attack, the failed Assessment Roll only for a
character who failed it, and so on; an ordering ruling appears only where two actions are ordered.
"""

from __future__ import annotations

import random

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.darkmaster import Phase, SequenceInput, ids, sequence_round

WEAPONS = ["Hand", "Short", "Long", "Longest", "longsword", "handaxe", "staff", "dagger", "spear", "hand axe"]


def _action(rng, n):
    kind = rng.choice(["move", "spell", "ranged", "melee", "other"])
    a = {"name": f"A{n}" + (" (2)" if kind == "other" and rng.random() < 0.2 else ""), "kind": kind,
         "readied": rng.random() < 0.1, "continuing": rng.random() < 0.2}
    if rng.random() < 0.5:
        a["type"] = rng.choice(["Full", "Half", "Free"])
    if kind == "melee":
        a.update(weapon_length=rng.choice(WEAPONS), positional_bonus=rng.random() < 0.3, dashing=rng.random() < 0.2)
    elif kind == "spell":
        a.update(instant=rng.random() < 0.4, prepared_rounds=rng.choice([0, 0, 1]))
    elif kind == "ranged":
        a.update(reloaded_before=rng.random() < 0.4, weapon=rng.choice(["longbow", "sling", "Sling of David"]))
    return a


def random_rounds(n=300, seed=2024):
    rng = random.Random(seed)
    for _ in range(n):
        yield {"combatants": [
            {"name": f"c{j}", "cmb": rng.choice([-5, 20, 40, 60]), "side": rng.choice(["npc", "player"]),
             "caster_level": rng.randint(0, 2), "assessment": rng.choice([None, None, "passed", "failed"]),
             "parry": rng.choice([0, 0, 10, 30, 70]), "actions": [_action(rng, k) for k in range(rng.randint(0, 3))]}
            for j in range(rng.randint(1, 4))]}


def _rounds():
    overrides = [None, {"darkmaster.phase-b-order": "simultaneous", "darkmaster.other-actions-order":
                        "declaration-order", "darkmaster.length-past-longest": "ahead-of-longest"}]
    for i, data in enumerate(random_rounds()):
        try:
            yield data, sequence_round(SequenceInput.from_dict(data), rulings=overrides[i % 2], strict=False)
        except RulesInputError:
            continue


def _placement_problems(data, r):
    """Placement cites and rulings whose condition the placed action does not meet."""
    acts = {(c["name"], a["name"]): (c, a) for c in data["combatants"] for a in c["actions"]}
    out = []
    for ph in r.phases:
        for p in ph.placements:
            if ph.phase in (Phase.ASSESSMENT, Phase.DECLARATION):
                failed = next(c for c in data["combatants"] if c["name"] == p.combatant)["assessment"] == "failed"
                if (ids.ASSESSMENT_FAILED in p.cites) != (failed and (ph.phase is Phase.DECLARATION or "failed" in
                                                                     p.action)):
                    out.append((p.combatant, p.action, "assessment-phase#3"))
                continue
            _, a = acts[(p.combatant, p.action)]
            checks = {ids.DASHING: a.get("dashing"), ids.POSITIONAL: a.get("positional_bonus"),
                      ids.MULTI_ROUND: "(" in a["name"], ids.ASSESSMENT_FAILED: False,
                      ids.HALF: "Half Action" in p.reason or p.penalty in (-20, -50)}
            out += [(p.combatant, p.action, rule) for rule, ok in checks.items() if rule in p.cites and not ok]
            rulings = {u.ruling_id for u in p.rulings}
            if "darkmaster.length-steps-stack" in rulings and not (a.get("dashing") and a.get("positional_bonus")):
                out.append((p.combatant, p.action, "length-steps-stack"))
            if "darkmaster.weapon-examples" in rulings and "kit's reading" not in p.reason:
                out.append((p.combatant, p.action, "weapon-examples"))
    return out


def _step_problems(data, r):
    """Steps citing a rule no one in the round is under, and ordering rulings with nothing to order."""
    cs = data["combatants"]
    acts = [a for c in cs for a in c["actions"]]
    in_play = {
        ids.DASHING: any(a.get("dashing") for a in acts),
        ids.POSITIONAL: any(a.get("positional_bonus") for a in acts),
        ids.ASSESSMENT_FAILED: any(c["assessment"] == "failed" for c in cs),
        ids.ASSESSMENT: any(c["assessment"] for c in cs),
        ids.PARRY: any(c["parry"] for c in cs),
        ids.READIED: any(a.get("readied") for a in acts),
        ids.MULTI_ROUND: any("(" in a["name"] for a in acts),
        ids.COMBINING: any(len(c["actions"]) > 1 for c in cs),
    }
    out = [(s.label, rule) for s in r.trace.walk() for rule, ok in in_play.items() if not ok and rule in
           [c.rule_id for c in s.cites]]
    out += [(s.label, "a rule cited twice") for s in r.trace.walk() if len({c.rule_id for c in s.cites}) < len(s.cites)]
    ordering = {"darkmaster.tie-cmb", "darkmaster.phase-b-order", "darkmaster.other-actions-order",
                "darkmaster.spell-tie"}
    for s in r.trace.children:
        if ordering & {u.ruling_id for u in s.rulings} and len(s.children) < 2:
            out.append((s.label, "an ordering ruling with one action"))
        if s.label == "Parry held back":
            out += [(s.label, c.rule_id) for c in s.cites if c.rule_id != ids.PARRY]
        if s.label.endswith("declarations checked") and ids.COMBINING in [c.rule_id for c in s.cites]:
            name = s.label.split(":")[0]
            if len(next(c for c in cs if c["name"] == name)["actions"]) < 2:
                out.append((s.label, "combining-actions#1"))
    return out


def test_every_cite_is_about_what_its_step_claims():
    n = 0
    for data, r in _rounds():
        n += 1
        assert _placement_problems(data, r) == [], data
        assert _step_problems(data, r) == [], data
    assert n > 150  # the sample really ran


def test_the_parry_step_cites_the_parry_rule_not_the_dashing_attack():
    # Aldric holds back 10 of CMB 60 (no Dashing Attack anywhere); Brom failed his Assessment Roll and holds
    # back 20 of 40 (at most 40 / 2 = 20)
    r = sequence_round(SequenceInput.from_dict({"combatants": [
        {"name": "Aldric", "cmb": 60, "parry": 10},
        {"name": "Brom", "cmb": 40, "assessment": "failed", "parry": 20}]}))
    step = next(s for s in r.trace.children if s.label == "Parry held back")
    assert [c.rule_id for c in step.cites] == [ids.PARRY]
    assert step.ruling_ids() == ("darkmaster.parry-timing",)
    assert [(c.label, [x.rule_id for x in c.cites]) for c in step.children] == [
        ("Aldric: Parry 10 of CMB 60", [ids.PARRY]),
        ("Brom: Parry 20 of CMB 40", [ids.PARRY, ids.ASSESSMENT_FAILED])]
    assert ids.DASHING not in r.trace.cited_ids()


def test_effective_length_cites_each_rule_once_and_only_the_bonuses_taken():
    import itertools

    from ruleslawyer.rulesets.darkmaster import effective_length

    for length, positional, dashing in itertools.product(["Hand", "Short", "Long", "Longest", "staff"], *[[False, True]] * 2):
        cites = [c if isinstance(c, str) else c.rule_id for c in effective_length(length, positional, dashing)[3]]
        assert len(cites) == len(set(cites)), (length, positional, dashing, cites)
        assert (ids.POSITIONAL in cites, ids.DASHING in cites) == (positional, dashing)
    # Longest with a Positional Bonus stays Longest (ruling stays-longest): the Longest row once
    assert len(effective_length("Longest", True)[3]) == 3  # melee-phase#1, Longest row, melee-phase#3
