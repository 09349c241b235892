"""Mastery subcommands: ``trauma``, ``mastery-ap``, ``mastery-move``, ``mastery-health``, and the
``exchange mastery`` / ``sequence mastery`` handlers of :mod:`ruleslawyer.commands.engines`."""

from __future__ import annotations

import argparse
import sys

from ruleslawyer.commands import engines

__all__ = ["register", "EXCHANGE_SCHEMA", "SEQUENCE_SCHEMA", "AP_SCHEMA", "SHEET_SCHEMA"]

def __getattr__(name: str):
    """The documented inputs (JSON Schema), from the declarations in :mod:`.schema`, loaded when asked for."""
    if name in ("EXCHANGE_SCHEMA", "SEQUENCE_SCHEMA", "AP_SCHEMA", "SHEET_SCHEMA"):
        from ruleslawyer.rulesets.mastery import schema

        return getattr(schema, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _out(result, as_json: bool) -> int:
    if as_json:
        from ruleslawyer.commands.output import print_json

        print_json(result)
    else:
        from ruleslawyer.render import to_text

        sys.stdout.write(to_text(result.trace).rstrip("\n") + "\n")
    return 0


def _load(path: str | None, field: str = "input", flag: str = "--input"):
    return engines.read_json(path, field, flag)


def _schema(name: str) -> int:
    """Print the JSON Schema ``name`` of :mod:`.schema` (the declarations the engine reads with)."""
    from ruleslawyer.commands.output import print_json
    from ruleslawyer.rulesets.mastery import schema

    print_json(getattr(schema, name))
    return 0


def _exchange(args) -> int:
    if args.schema:
        return _schema("EXCHANGE_SCHEMA")
    from ruleslawyer.rulesets.mastery import exchange_from_dict

    return _out(exchange_from_dict(_load(args.input), seed=args.seed, rulings=args.rulings, rules=args.rules),
                args.json)


def _sequence(args) -> int:
    if args.schema:
        return _schema("SEQUENCE_SCHEMA")
    from ruleslawyer.rulesets.mastery import sequence_from_dict

    return _out(sequence_from_dict(_load(args.input), seed=args.seed, rulings=args.rulings, rules=args.rules),
                args.json)


def _trauma(args) -> int:
    if args.schema:
        return _schema("SHEET_SCHEMA")
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
        from ruleslawyer.commands.output import print_json

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
        return _schema("AP_SCHEMA")
    from ruleslawyer.rulesets.mastery import plan_actions

    from ruleslawyer.rulesets.mastery.schema import AP

    data = _load(args.input)
    d = AP.read({"actions": data} if isinstance(data, list) else data, "")  # strict: "ap_per_rund" refused
    return _out(plan_actions(d["actions"], ap_per_round=d.get("ap_per_round", 2), rulings=d.get("rulings"),
                             rules=args.rules), args.json)


def _move(args) -> int:
    from ruleslawyer.rulesets.mastery import plan_movement

    return _out(plan_movement(args.agility_tier, small=args.small, moves=args.moves, normal_squares=args.normal,
                              rugged_squares=args.rugged), args.json)


def _health(args) -> int:
    from ruleslawyer.rulesets.mastery import starting_health

    return _out(starting_health(args.endurance_tier, class_health=args.class_health, seed=args.seed,
                                rules=args.rules), args.json)


def register(sub: argparse._SubParsersAction) -> None:
    engines.HANDLERS[("exchange", "mastery")] = _exchange
    engines.HANDLERS[("sequence", "mastery")] = _sequence

    p = sub.add_parser("trauma", help="Mastery: roll a Trauma (d100 table from the db), or ask what a trauma setting does")
    p.add_argument("--roll", type=int, help="the d100 already rolled (1-100)")
    p.add_argument("--finger", type=int, help="the 1d10 finger roll for 'Lose a finger' (1-10)")
    p.add_argument("--seed", type=engines.seed_arg, help="seed the dice")
    p.add_argument("--setting", choices=["realistic", "brutal", "deadly"],
                   help="list what follows each event under this setting (with --roll/--seed: the roll too)")
    p.add_argument("--event", choices=["fighting-on-health-damage", "reached-zero", "natural-minimum-resist",
                                       "exploded-hit-health-damage"],
                   help="does a Trauma follow this event (under --setting, default realistic)?")
    p.add_argument("--sheet", metavar="FILE.json", help="a trauma sheet to update {traumas, lost, punctured_lungs} "
                                                        "(see --schema)")
    p.add_argument("--schema", action="store_true", help="print the trauma sheet's format (JSON Schema) and exit")
    p.add_argument("--ruling", action="append", type=engines.ruling_arg, metavar="ID=ANSWER", help="override a ruling")
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
    p.add_argument("--seed", type=engines.seed_arg, help="seed the dice so the roll can be repeated")
    p.add_argument("--json", action="store_true", help="print the result and trace as JSON")
    p.set_defaults(func=_health)
