"""Mastery engine throughput: exchanges with JSON output, rounds and Trauma rolls per second with full trace.

Reference: the bare dice arithmetic of an exchange (exploding tier dice, armour, durability) with no
trace, no citations, no rulings. Exchanges with the trace alone, against a peer roller and against the
engine with the trace stubbed out, are in ``bench_engines.py``. Each loop and the reference are timed
in turns, CPU time of this process (see ``harness.interleaved``).
"""

from __future__ import annotations

import random

from harness import QUICK, Row, interleaved

N = 20 if QUICK else 500


def _inputs():
    from ruleslawyer.rulesets import mastery as M

    rng = random.Random(7)
    cases = []
    for i in range(N):
        a = M.Combatant("A", attack=M.Attack("melee", tier=rng.randint(1, 3), weapon=rng.randint(0, 3)), defense_tier=2)
        d = M.Combatant("D", health=rng.randint(1, 8), durability=rng.randint(0, 3), armour_resistance=rng.randint(0, 2),
                        defense_tier=rng.randint(1, 3), endurance_tier=2, attack=M.Attack("melee", tier=2, weapon=1))
        cases.append((a, d, M.Situation(defend=rng.random() < 0.7, counterattack=True, setting="brutal")))
    return cases


def _bare(cases):
    """Reference: the same dice arithmetic with no trace, no citations, no rulings (exploding d4 vs d3)."""
    rng = random.Random(1)

    def boom(sides):
        total = face = rng.randint(1, sides)
        while face == sides:
            face = rng.randint(1, sides)
            total += face
        return total

    for a, d, s in cases:
        att = boom(a.attack.tier + 1) + a.attack.weapon
        dfn = boom(d.defense_tier + 1) + d.armour_resistance if s.defend else -1
        if dfn < att:
            dmg = max(att - d.armour_resistance, 0)
            dur = min(dmg, d.durability)
            _ = d.health - min(dmg - dur, d.health)


def run() -> list[Row]:
    from ruleslawyer.rulesets import mastery as M

    cases = _inputs()

    def exchanges_json():
        for i, (a, d, s) in enumerate(cases):
            M.resolve_exchange(a, d, s, seed=i).to_dict()

    cs = [M.RoundCombatant(f"C{j}", "pcs" if j % 2 else "enemies", M.Declaration(weapon=w), unaware=j == 0,
                           agility_tier=2, perception_tier=2)
          for j, w in enumerate(["dagger", "sword", "maul", "unarmed", "spear", "greataxe"])]

    def rounds():
        for i in range(N):
            M.sequence_round(cs, seed=i)

    def traumas():
        sheet = M.TraumaSheet()
        for i in range(N):
            M.roll_trauma(seed=i, sheet=sheet)

    t = interleaved({"exj": exchanges_json, "bare": lambda: _bare(cases), "rd": rounds, "tr": traumas}, runs=5)
    exj, bare, rd, tr = (t[k] / N for k in ("exj", "bare", "rd", "tr"))
    us = 1e6
    return [
        Row("Mastery exchange + to_dict (random matchups)", exj * us, "µs", "bare dice arithmetic, no trace",
            bare * us, note=f"{1 / exj:,.0f} exchanges/s including to_dict for JSON; Brutal setting, "
                            "counterattacks on; 500 random matchups"),
        Row("Mastery round sequence (6 combatants, 1 Startle)", rd * us, "µs", "bare dice arithmetic, no trace",
            bare * us, note=f"{1 / rd:,.0f} rounds/s"),
        Row("Mastery Trauma roll with sheet", tr * us, "µs", "bare dice arithmetic, no trace", bare * us,
            note=f"{1 / tr:,.0f} Trauma rolls/s (table cached per database)"),
    ]
