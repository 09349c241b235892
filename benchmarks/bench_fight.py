"""A whole fight: time per round of 10 combatants (5 a side) over 10 rounds with the full log, against one
exchange of the same ruleset (the reference).

Each fight starts from its JSON input through the real entry points (``encounter_class(ruleset).start``,
``declare``, ``resolve_round``) and plays 10 rounds with dice from the fight's seed (no script): every
round checks 10 declarations against the state, resolves the round's stages with their trace, appends
its log lines and carries the state. Every combatant attacks the foe across from it twice a round
(Darkmaster: one Full Action attack with a Parry held back); Hit Points are high enough that nobody
drops, so each of the 10 rounds does the same amount of work.

The reference is one exchange of the same ruleset with its full trace, the work a fight repeats about
20 times a round: Mastery ``exchange_from_dict`` on ``examples/mastery/exchange-melee.json``, Mythras
``resolve_exchange`` on ``examples/mythras/broadsword-vs-dagger.json`` (their scripted dice removed, a
fresh seed each). Against the Darkmaster has no exchange engine (its attack tables are in other
chapters): its reference is one attack roll, the open-ended d100 with its trace
(``roll_open_ended``), the only dice an attack rolls. The fight and its reference are timed in turns,
CPU time of this process (``harness.interleaved``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from harness import QUICK, Row, interleaved

ROOT = Path(__file__).resolve().parent.parent
SIDE = 5  # combatants a side
ROUNDS = 10
EXCHANGES = 20 if QUICK else 300  # reference exchanges per timed run


def _pairs() -> list[tuple[str, str]]:
    return [(f"Hero {i + 1}", f"Foe {i + 1}") for i in range(SIDE)]


def _mastery() -> tuple[list[dict], dict[str, dict]]:
    """Swords against mauls (the duel example's sheets, 100 health each): two attacks a round each."""
    fighters, declare = [], {}
    for hero, foe in _pairs():
        fighters.append({"name": hero, "side": "pcs", "weapon": "sword", "health": 100, "durability": 2,
                         "armour_resistance": 1, "endurance_tier": 2, "defense_tier": 2,
                         "attack": {"kind": "melee", "tier": 2, "weapon": 2}, "within_reach": [foe]})
        fighters.append({"name": foe, "side": "enemies", "weapon": "maul", "health": 100, "durability": 1,
                         "armour_resistance": 1, "endurance_tier": 2, "defense_tier": 1, "within_reach": [hero],
                         "attack": {"kind": "melee", "tier": 2, "weapon": 2, "damage_type": "crushing"}})
        for me, other in ((hero, foe), (foe, hero)):
            declare[me] = {"actions": [{"action": "attack", "target": other}, {"action": "attack", "target": other}]}
    return fighters, declare


def _mythras() -> tuple[list[dict], dict[str, dict]]:
    """Broadswords against spears (the duel example's fighters, 60 Hit Points a location), Engaged in pairs."""
    hp = {loc: 60 for loc in ("Right Leg", "Left Leg", "Abdomen", "Chest", "Right Arm", "Left Arm", "Head")}
    fighters, declare = [], {}
    for hero, foe in _pairs():
        fighters.append({"name": hero, "side": "heroes", "combat_style": 60, "evade": 40, "endurance": 45,
                         "weapon": {"name": "Broadsword", "damage": "1d8", "size": "Medium", "traits": ["cutting"]},
                         "str_siz": 27, "initiative_modifier": 13, "dex": 14, "armour": {"Chest": 4},
                         "hit_points": hp, "engaged_with": [foe]})
        fighters.append({"name": foe, "side": "raiders", "combat_style": 50, "evade": 30, "endurance": 50,
                         "weapon": {"name": "Spear", "damage": "1d8+1", "size": "Medium", "traits": ["impaling"]},
                         "str_siz": 22, "initiative_modifier": 10, "dex": 11, "hit_points": hp})
        for me, other in ((hero, foe), (foe, hero)):
            declare[me] = {"actions": ["Attack", "Attack"], "target": other}
    return fighters, declare


def _darkmaster() -> tuple[list[dict], dict[str, dict]]:
    """CMB 50, 500 hits each: a longsword attack a round (CMB 40 to it, 10 held back to Parry); a roll of
    100 or more also opens a wound Bleeding 1 a Round for 2 Rounds."""
    fighters, declare = [], {}
    for hero, foe in _pairs():
        fighters.append({"name": hero, "side": "player", "cmb": 50, "hits": 500})
        fighters.append({"name": foe, "side": "npc", "cmb": 50, "hits": 500})
        for me, other in ((hero, foe), (foe, hero)):
            declare[me] = {"parry": 10, "actions": [{
                "name": "Longsword attack", "kind": "melee", "weapon": "longsword", "target": other,
                "result": [{"at_least": 100, "hits": 5, "conditions": [{"name": "Bleeding", "per_round": 1,
                                                                        "rounds": 2}]},
                           {"at_least": 60, "hits": 2}]}]}
    return fighters, declare


def _fight(ruleset: str, fighters: list[dict], declare: dict[str, dict], seed: int):
    """Start the fight and play :data:`ROUNDS` rounds with the same declarations each round."""
    from ruleslawyer.commands.fight import encounter_class

    fight = encounter_class(ruleset).start(fighters, seed=seed)
    for _ in range(ROUNDS):
        for name, decl in declare.items():
            fight.declare(name, decl)
        fight.resolve_round()
    return fight


def _example(ruleset: str, name: str) -> dict:
    data = json.loads((ROOT / "examples" / ruleset / name).read_text(encoding="utf-8"))
    for key in ("dice", "seed", "description"):
        data.pop(key, None)
    return data


def _exchanges(ruleset: str):
    """The reference: :data:`EXCHANGES` exchanges (Darkmaster: attack rolls) with a fresh seed each."""
    if ruleset == "mastery":
        from ruleslawyer.rulesets.mastery import exchange_from_dict

        data = _example("mastery", "exchange-melee.json")
        return lambda: [exchange_from_dict(data, seed=i) for i in range(EXCHANGES)]
    if ruleset == "mythras":
        from ruleslawyer.rulesets.mythras import ExchangeInput, resolve_exchange

        data = _example("mythras", "broadsword-vs-dagger.json")
        inp = ExchangeInput.from_dict({k: v for k, v in data.items() if k != "rulings"})
        return lambda: [resolve_exchange(inp, seed=i) for i in range(EXCHANGES)]
    from ruleslawyer.dice import Dice
    from ruleslawyer.rulesets.darkmaster import roll_open_ended

    return lambda: [roll_open_ended(Dice(rng=random.Random(i)), "attack") for i in range(EXCHANGES)]


REFERENCES = {"mastery": "one Mastery exchange (exchange-melee.json), full trace",
              "mythras": "one Mythras exchange (broadsword-vs-dagger.json), full trace",
              "darkmaster": "one Darkmaster attack roll (open-ended d100), full trace"}
BUILD = {"mastery": _mastery, "mythras": _mythras, "darkmaster": _darkmaster}
#: Attacks declared a round (2 AP of attacks each in Mastery and Mythras; one Full Action in Darkmaster).
ATTACKS = {"mastery": 4 * SIDE, "mythras": 4 * SIDE, "darkmaster": 2 * SIDE}


def _rows(ruleset: str) -> list[Row]:
    fighters, declare = BUILD[ruleset]()
    check = _fight(ruleset, fighters, declare, seed=7)
    if check.state.round != ROUNDS or check.state.over:
        raise AssertionError(f"{ruleset}: the benchmark fight ended early (round {check.state.round})")
    per = [sum(1 for x in check.log if x.round == n) for n in range(1, ROUNDS + 1)]
    if min(per) < 0.8 * per[0]:  # a combatant down would leave later rounds with fewer lines
        raise AssertionError(f"{ruleset}: the rounds do unequal work (log lines per round {per}); did someone drop?")
    lines = len(check.log) / ROUNDS
    t = interleaved({"fight": lambda: _fight(ruleset, fighters, declare, seed=11), "ref": _exchanges(ruleset)},
                    runs=5)
    per_round, per_ref = t["fight"] / ROUNDS, t["ref"] / EXCHANGES
    us = 1e6
    title = {rid: name for name, rid in _titles()}[ruleset]
    return [Row(f"{title} fight round, {2 * SIDE} combatants, full log ({1 / per_round:,.0f} rounds/s)",
                per_round * us, "µs", REFERENCES[ruleset], per_ref * us,
                note=f"{ROUNDS} rounds from the start, dice from the seed, the same declarations each round; "
                     f"{ATTACKS[ruleset]} attacks and ~{lines:.0f} log lines a round, so "
                     f"{per_round / ATTACKS[ruleset] * us:,.0f} µs an attack "
                     f"({per_round / ATTACKS[ruleset] / per_ref:.2f}x the reference); time per round includes "
                     "checking the declarations and starting the fight (spread over the rounds); CPU time, in turns")]


def _titles() -> list[tuple[str, str]]:
    from ruleslawyer.registry import rulesets

    return [(r.title, r.id) for r in rulesets() if r.encounter]


def run() -> list[Row]:
    rows = []
    for _, ruleset in _titles():
        if ruleset in BUILD:
            rows += _rows(ruleset)
    return rows


if __name__ == "__main__":
    for r in run():
        print(r)
