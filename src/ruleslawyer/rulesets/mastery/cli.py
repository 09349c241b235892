"""Mastery subcommands: ``trauma``, ``mastery-ap``, ``mastery-move``, ``mastery-health``, and the
``exchange mastery`` / ``sequence mastery`` handlers of :mod:`ruleslawyer.commands.engines`."""

from __future__ import annotations

import argparse
import sys

from ruleslawyer.commands import engines

__all__ = ["register", "EXCHANGE_SCHEMA", "SEQUENCE_SCHEMA", "AP_SCHEMA"]

_COMBATANT = {
    "name": "label (default: the key)",
    "ap": "AP left this round, 0-2 (default 2)",
    "health": "current health >= 0 (default 10)",
    "durability": "armour durability >= 0 (default 0)",
    "armour_resistance": "armour resistance >= 0 (default 0)",
    "endurance_tier": "1-10 (default 1): dying timer and Endurance trials",
    "defense_tier": "tier die for defense: the wielded melee weapon's, or STR/PHY (default 1)",
    "shield": "shield bonus to defense, or null for no shield (default null); required with wielding shield, "
              "refused with unarmed or projectile",
    "defense_modifiers": "other modifiers to defense (default 0)",
    "wielding": "melee | shield | unarmed | projectile (default melee)",
    "perception_tier": "Perception tier for the Aiming Trial (default 1)",
    "casting": "true if in the middle of casting a spell (default false)",
    "state": "standing | fighting-on | unconscious | dead (0 health: fighting-on or unconscious; a dead "
             "defender is refused)",
    "dying_rounds": "rounds left on the dying timer, or null",
    "sheet": "trauma sheet {traumas: [...], lost: [parts], punctured_lungs: 0-2}",
    "attack": {
        "kind": "melee | thrown | bow | crossbow | sling | unarmed | natural",
        "tier": "the formula's tier: STR or PHY (melee/thrown), PHY (bow), PER (crossbow)",
        "weapon": "WEA as a number, or dice such as \"1d4\" (a crossbow's fixed weapon dice); dice explode",
        "modifiers": "other modifiers (default 0)",
        "damage_type": "cutting | cleaving | crushing | piercing | puncturing | fire | sea | sky | stone | "
                       "primal | profane | sacred | void (default cutting)",
        "magic": "[{amount, type}] magic portions of the hit (Imbue, enchantment)",
        "spanned": "crossbow already spanned (default true)",
    },
}

EXCHANGE_SCHEMA = {
    "command": "ruleslawyer exchange mastery --input FILE.json [--seed S] [--json] [--ruling ID=ANSWER]",
    "fields": {
        "attacker": {"...": "a combatant (below); attack is required", **_COMBATANT},
        "defender": "a combatant (same fields; attack needed only for a counterattack)",
        "situation": {
            "defend": "the defender declares a defense (1 AP) before the roll (default true)",
            "range": "melee | close | moderate | far (ranged attacks: Aiming DC 2, +1 moderate, +3 far)",
            "flanking": "the target is threatened on the other side too: +2 (default false)",
            "first_attack_of_ap": "first attack made with this AP (flanking counts once per AP; default true)",
            "elevation": "none | attacker | defender",
            "allies_adjacent_to_target": "attacker's allies adjacent to the target: +1 Aiming DC each",
            "cover": "extra Aiming DC from cover or maneuvers",
            "hostile_within_5ft": "a hostile creature is within 5 ft of the attacker",
            "counterattack": "after a successful defense the defender counterattacks (1 AP)",
            "counter_defend": "the attacker defends the counterattack if able (default true)",
            "fight_on": "remain conscious at 0 health after a successful Endurance trial (default true)",
            "setting": "realistic | brutal | deadly (trauma setting; default realistic)",
            "sheet_effects": "apply the Traumas on the sheets where they bite: the Endurance trial when spending AP "
                             "to attack, penalties on ranged attack rolls and the Aiming Trial (default false; a "
                             "fight sets it)",
            "precipitation": "rain, sleet, hail or snow: Painful Scar's trial, with sheet_effects (default false)",
        },
        "dice": "scripted dice by slot: attack, defense, aim, endurance, trauma, finger "
                "(e.g. {\"attack\": [4, 4, 1], \"defense\": [3]}); unscripted slots roll",
        "seed": "seed for unscripted dice",
        "rulings": "ruling overrides {id: answer}; see `ruleslawyer rulings --ruleset mastery`",
        "description": "free text, ignored",
    },
    "examples": ["examples/mastery/exchange-melee.json", "examples/mastery/exchange-ranged.json",
                 "examples/mastery/exchange-fighting-on.json"],
}

SEQUENCE_SCHEMA = {
    "command": "ruleslawyer sequence mastery --input FILE.json [--seed S] [--json]",
    "fields": {
        "combatants": [{
            "name": "unique name",
            "side": "pcs | enemies",
            "unaware": "makes a Startle trial (round 1)",
            "agility_tier": "for the Startle trial (default 1)",
            "perception_tier": "for the Startle trial (default 1)",
            "declaration": {
                "weapon": "a speed (fast | moderate | slow) or a chapter example: dagger, shortbow, unarmed, "
                          "sword, mace, spear, maul, greataxe, heavy crossbow",
                "attack": "declares an attack with it (default true); a weapon held without one does not set the phase",
                "switch_to": "a weapon switched to this round",
                "style_speed": "speed of a combat style changed to",
                "spell": "a name (Flame Dart, Thunderclap) or {name, speed, magan}",
                "hold_to": "a later phase to act in",
                "hold_trigger": "{condition, ap (1-2), occurs: phase or null (never)}",
            },
        }],
        "round": "round number (default 1): Impaired steps down each round",
        "side_roll": "the 1d6 already rolled (else slot side)",
        "startle_dc": "GM-adjusted Startle DC (default 6)",
        "ambush_dc": "the ambushers' DC",
        "dice": "scripted dice by slot: side, startle_agility, startle_perception",
        "seed": "seed", "rulings": "ruling overrides",
    },
    "examples": ["examples/mastery/sequence.json"],
}

AP_SCHEMA = {
    "command": "ruleslawyer mastery-ap --input FILE.json [--json]",
    "fields": {"actions": "list of action objects, each with one key: action (any row of the Other Actions "
                          "table or the supplement's action-costs table; table is the same, + adjust for the "
                          "tinderbox), retrieve (quick|body|container, items, use), stow, draw, swap, drop, "
                          "remove_shield (heater|kite|targe), cast (ap, components), move, attack, triage",
               "ap_per_round": "2 (default), or 1 after a Trauma that says 'You have 1 AP per round'",
               "rulings": "ruling overrides {id: answer}, e.g. {\"mastery.triage-across-rounds\": \"one-round\"}"},
    "examples": ["examples/mastery/ap-torch.json"],
}


def _out(result, as_json: bool) -> int:
    if as_json:
        from ruleslawyer.cli import print_json

        print_json(result)
    else:
        from ruleslawyer.render import to_text

        sys.stdout.write(to_text(result.trace).rstrip("\n") + "\n")
    return 0


def _load(path: str | None, field: str = "input", flag: str = "--input"):
    return engines.read_json(path, field, flag)


def _schema(schema: dict) -> int:
    from ruleslawyer.cli import print_json

    print_json(schema)
    return 0


def _exchange(args) -> int:
    if args.schema:
        return _schema(EXCHANGE_SCHEMA)
    from ruleslawyer.rulesets.mastery import exchange_from_dict

    return _out(exchange_from_dict(_load(args.input), seed=args.seed, rulings=args.rulings, rules=args.rules),
                args.json)


def _sequence(args) -> int:
    if args.schema:
        return _schema(SEQUENCE_SCHEMA)
    from ruleslawyer.rulesets.mastery import sequence_from_dict

    return _out(sequence_from_dict(_load(args.input), seed=args.seed, rulings=args.rulings, rules=args.rules),
                args.json)


def _trauma(args) -> int:
    from ruleslawyer.rulesets.mastery import TraumaEvent, roll_trauma, trauma_follows

    if args.event:
        return _out(trauma_follows(args.event, args.setting or "realistic", rules=args.rules), args.json)
    rolling = any(v is not None for v in (args.roll, args.finger, args.seed, args.sheet))
    checks = [trauma_follows(e, args.setting, rules=args.rules) for e in TraumaEvent] if args.setting else []
    result = None
    if rolling or not args.setting:
        sheet = None
        if args.sheet:
            from ruleslawyer.rulesets.mastery import TraumaSheet

            sheet = TraumaSheet.from_dict(_load(args.sheet, "sheet", "--sheet"))
        result = roll_trauma(roll=args.roll, finger=args.finger, seed=args.seed, sheet=sheet,
                             rulings=dict(args.ruling or []), rules=args.rules)
        if not checks:
            return _out(result, args.json)
    if args.json:
        from ruleslawyer.cli import print_json

        doc = {"setting": args.setting, "events": [c.to_dict() for c in checks]}
        if result is not None:
            doc = {"trauma": result.to_dict(), **doc}
        print_json(doc)
        return 0
    from ruleslawyer.render import to_text

    for r in ([result] if result is not None else []) + checks:
        sys.stdout.write(to_text(r.trace).rstrip("\n") + "\n")
    return 0


def _ap(args) -> int:
    if args.schema:
        return _schema(AP_SCHEMA)
    from ruleslawyer.rulesets.mastery import plan_actions

    data = _load(args.input)
    actions = data.get("actions") if isinstance(data, dict) else data
    per_round = data.get("ap_per_round", 2) if isinstance(data, dict) else 2
    rulings = data.get("rulings") if isinstance(data, dict) else None
    return _out(plan_actions(actions, ap_per_round=per_round, rulings=rulings, rules=args.rules), args.json)


def _move(args) -> int:
    from ruleslawyer.rulesets.mastery import plan_movement

    return _out(plan_movement(args.agility_tier, small=args.small, moves=args.moves, normal_squares=args.normal,
                              rugged_squares=args.rugged), args.json)


def _health(args) -> int:
    from ruleslawyer.rulesets.mastery import starting_health

    return _out(starting_health(args.endurance_tier, class_health=args.class_health, seed=args.seed,
                                rules=args.rules), args.json)


def _ruling(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected ID=ANSWER, got {text!r}")
    k, _, v = text.partition("=")
    return k.strip(), v.strip()


def register(sub: argparse._SubParsersAction) -> None:
    engines.HANDLERS[("exchange", "mastery")] = _exchange
    engines.HANDLERS[("sequence", "mastery")] = _sequence

    p = sub.add_parser("trauma", help="Mastery: roll a Trauma (d100 table from the db), or ask what a trauma setting does")
    p.add_argument("--roll", type=int, help="the d100 already rolled (1-100)")
    p.add_argument("--finger", type=int, help="the 1d10 finger roll for 'Lose a finger' (1-10)")
    p.add_argument("--seed", type=int, help="seed the dice")
    p.add_argument("--setting", choices=["realistic", "brutal", "deadly"],
                   help="list what follows each event under this setting (with --roll/--seed: the roll too)")
    p.add_argument("--event", choices=["fighting-on-health-damage", "reached-zero", "natural-minimum-resist",
                                       "exploded-hit-health-damage"],
                   help="does a Trauma follow this event (under --setting, default realistic)?")
    p.add_argument("--sheet", metavar="FILE.json", help="a trauma sheet to update {traumas, lost, punctured_lungs}")
    p.add_argument("--ruling", action="append", type=_ruling, metavar="ID=ANSWER", help="override a ruling")
    p.add_argument("--json", action="store_true", help="print the result and trace as JSON")
    p.set_defaults(func=_trauma)

    p = sub.add_parser("mastery-ap", help="Mastery: AP and rounds for a list of actions (AP planner)")
    p.add_argument("--input", metavar="FILE.json", help="{\"actions\": [...]} (see --schema)")
    p.add_argument("--schema", action="store_true", help="print the documented input format and exit")
    p.add_argument("--json", action="store_true", help="print the plan and trace as JSON")
    p.set_defaults(func=_ap)

    p = sub.add_parser("mastery-move", help="Mastery: speed, repeated moves and rugged terrain")
    p.add_argument("--agility-tier", type=int, required=True, metavar="TIER",
                   help="the mover's Agility tier (1-10); speed is 3 + tier squares")
    p.add_argument("--small", action="store_true", help="the mover is Small (speed - 1)")
    p.add_argument("--moves", type=int, default=1, help="move actions in a row (default 1)")
    p.add_argument("--normal", type=int, default=0, help="normal squares of a path")
    p.add_argument("--rugged", type=int, default=0, help="rugged squares of a path (cost double)")
    p.add_argument("--json", action="store_true", help="print the plan and trace as JSON")
    p.set_defaults(func=_move)

    p = sub.add_parser("mastery-health", help="Mastery: roll starting health from the Endurance tier")
    p.add_argument("--endurance-tier", type=int, required=True, metavar="TIER",
                   help="Endurance tier (1-10): one tier die per tier, e.g. tier 3 rolls 1d2 + 1d3 + 1d4")
    p.add_argument("--class-health", type=int, default=0, metavar="N",
                   help="flat health the character's class adds (default 0)")
    p.add_argument("--seed", type=int, help="seed the dice so the roll can be repeated")
    p.add_argument("--json", action="store_true", help="print the result and trace as JSON")
    p.set_defaults(func=_health)
