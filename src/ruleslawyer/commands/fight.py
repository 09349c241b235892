"""``ruleslawyer fight RULESET --input FILE [--rounds N] [--json] [--schema]``: a whole fight.

The input holds the combatants, each round's declarations and optional scripted dice::

    {"seed": 7, "rulings": {}, "options": {}, "combatants": [{...}, ...],
     "rounds": [{"declare": {"Aldric": {...}, "Brute": {...}}, "dice": {"attack": [4, 4]}}, ...]}

or a fight saved with ``--json`` (its ``"fight"`` member), with more ``rounds`` to play on. Each
ruleset's combatant and declaration fields: ``ruleslawyer fight RULESET --schema``. Top level imports
only the standard library (a cold start of other commands does not pay for the engines).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ruleslawyer.commands.engines import ruling_arg, seed_arg
from ruleslawyer.errors import RulesInputError
from ruleslawyer.limits import whole_arg

__all__ = ["register", "encounter_class"]


def encounter_class(ruleset_id: str):
    """The :class:`ruleslawyer.encounter.Encounter` subclass of ``ruleset_id`` (from the registry).

    Raises:
        RulesInputError: unknown ruleset, or one without fights (field ``ruleset``).
    """
    from ruleslawyer.registry import get_ruleset, rulesets

    ruleset = get_ruleset(ruleset_id)
    if not ruleset.encounter:
        have = ", ".join(r.id for r in rulesets() if r.encounter) or "none"
        raise RulesInputError("ruleset", f"{ruleset_id} has no fight engine; rulesets with one: {have}")
    module, _, name = ruleset.encounter.partition(":")
    return getattr(importlib.import_module(module), name)


def _rounds(data: dict, limit: int | None) -> list[dict]:
    rounds = data.get("rounds", [])
    if isinstance(rounds, (str, dict)) or not isinstance(rounds, list):
        raise RulesInputError("rounds", "must be a list of rounds, each {\"declare\": {...}, \"dice\": {...}}")
    for i, r in enumerate(rounds):
        if not isinstance(r, dict):
            raise RulesInputError(f"rounds[{i}]", "a round must be an object with declare and dice")
        unknown = sorted(set(r) - {"declare", "dice"})
        if unknown:
            raise RulesInputError(f"rounds[{i}].{unknown[0]}", "unknown field; allowed: declare, dice")
        if not isinstance(r.get("declare", {}), dict):
            raise RulesInputError(f"rounds[{i}].declare", "must be an object of combatant name -> declaration")
        if r.get("dice") is not None and not isinstance(r["dice"], dict):
            raise RulesInputError(f"rounds[{i}].dice", "must be an object of slot -> list of faces")
    return rounds if limit is None else rounds[:limit]


def _fight(args) -> int:
    from ruleslawyer.commands.output import print_json
    from ruleslawyer.commands import engines

    cls = encounter_class(args.ruleset)
    if args.schema:
        print_json(cls.schema())
        return 0
    data = engines.read_object(args.input)
    unknown = sorted(set(data) - {"seed", "rulings", "options", "combatants", "rounds", "fight", "description"})
    if unknown:
        raise RulesInputError(unknown[0], "unknown field; allowed: seed, rulings, options, combatants, rounds, fight, "
                                          "description")
    fight = cls.from_input(data, seed=args.seed, rulings=args.rulings, rules=args.rules)
    rounds = _rounds(data, args.rounds)
    results = []
    for r in rounds:
        if fight.state.over:
            break
        for name, decl in (r.get("declare") or {}).items():
            fight.declare(name, decl)
        results.append(fight.resolve_round(r.get("dice")))
    note = _not_played(len(rounds) - len(results), fight.state.round)
    if note:
        print(f"ruleslawyer: note: {note}", file=sys.stderr)
    if args.json:
        print_json({"rounds": [x.to_dict() for x in results], "not_played": len(rounds) - len(results),
                    "note": note, "fight": fight.to_dict()})
        return 0
    for line in fight.log:
        cites = f"  [{', '.join(line.cites)}]" if line.cites else ""
        print(f"round {line.round}: {line.text}{cites}")
    print(f"after round {fight.state.round}: " + "; ".join(cls.summary(c) for c in fight.state.combatants))
    if note:
        print(f"note: {note}")
    return 0


def _not_played(count: int, last: int) -> str:
    """What a GM is told when the input declares rounds after the fight has ended ("" if none)."""
    if count <= 0:
        return ""
    rounds = "round" if count == 1 else "rounds"
    return (f"the fight ended in round {last}; the {count} {rounds} declared after it "
            f"{'was' if count == 1 else 'were'} not played")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("fight", help="a whole fight across rounds: state carried, every change cited")
    p.add_argument("ruleset", metavar="RULESET", help="ruleset whose fight engine to use")
    p.add_argument("--input", metavar="FILE.json", help="combatants, rounds of declarations, optional dice")
    p.add_argument("--rounds", type=whole_arg, metavar="N", help="play at most N of the input's rounds")
    p.add_argument("--seed", type=seed_arg, help="seed the fight's dice (overrides the input's seed)")
    p.add_argument("--json", action="store_true", help="print each round and the saved fight as JSON")
    p.add_argument("--schema", action="store_true", help="print the input format and exit")
    p.add_argument("--ruling", action="append", type=ruling_arg, metavar="ID=ANSWER", default=[],
                   help="override a registered ruling (repeatable)")
    p.set_defaults(func=lambda args: _fight(_with_rulings(args)))


def _with_rulings(args):
    args.rulings = dict(args.ruling or [])
    if args.rounds is not None and args.rounds < 0:
        raise RulesInputError("rounds", f"must be 0 or more, got {args.rounds}")
    return args
