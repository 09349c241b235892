"""Mythras engine commands: ``ruleslawyer exchange mythras`` and ``ruleslawyer initiative mythras``.

Registers handlers into :data:`ruleslawyer.commands.engines.HANDLERS`; top level imports only the
standard library and the engines registry.
"""

from __future__ import annotations

from ruleslawyer.errors import RulesInputError

import argparse

from ruleslawyer.commands import engines

__all__ = ["register"]


def _out(args, result) -> int:
    from ruleslawyer.commands.output import print_json

    if args.json:
        print_json(result)
    else:
        from ruleslawyer.render import to_text

        print(to_text(result.trace))
    return 0


def _exchange(args: argparse.Namespace) -> int:
    from ruleslawyer.commands.output import print_json

    if args.schema:
        from ruleslawyer.rulesets.mythras.schema import EXCHANGE_SCHEMA

        print_json(EXCHANGE_SCHEMA)
        return 0
    from ruleslawyer.rulesets.mythras.charge import ChargeInput, resolve_charge
    from ruleslawyer.rulesets.mythras.exchange import ExchangeInput, resolve_exchange
    from ruleslawyer.trace import merge_overrides

    data = engines.read_object(args.input)
    charge = "counter" in data or "longer" in data  # a Charge met by a counter: two blows
    inp = ChargeInput.from_dict(data) if charge else ExchangeInput.from_dict(data)  # strict: dice slots too
    rulings = merge_overrides(data.get("rulings"), getattr(args, "rulings", None))
    seed = args.seed if args.seed is not None else data.get("seed")
    kw = {"seed": seed, "script": data.get("dice"), "rulings": rulings, "rules": getattr(args, "rules", None)}
    return _out(args, (resolve_charge if charge else resolve_exchange)(inp, **kw))


def _initiative(args: argparse.Namespace) -> int:
    from ruleslawyer.commands.output import print_json

    if args.schema:
        from ruleslawyer.rulesets.mythras.schema import INITIATIVE_SCHEMA

        print_json(INITIATIVE_SCHEMA)
        return 0
    from ruleslawyer.rulesets.mythras.initiative import InitiativeCombatant, roll_initiative
    from ruleslawyer.rulesets.mythras.schema import INITIATIVE
    from ruleslawyer.trace import merge_overrides

    data = INITIATIVE.read(engines.read_object(args.input), "")  # strict: unknown fields, dice slots, types
    combatants = data["combatants"]
    rulings = merge_overrides(data.get("rulings"), getattr(args, "rulings", None))
    seed = args.seed if args.seed is not None else data.get("seed")
    result = roll_initiative([InitiativeCombatant.from_dict(c, f"combatants[{i}]") for i, c in enumerate(combatants)],
                             seed=seed, script=data.get("dice"), rulings=rulings, rules=getattr(args, "rules", None))
    return _out(args, result)


def register(sub: argparse._SubParsersAction) -> None:  # noqa: ARG001 - the subcommands live in engines
    """Register the Mythras handlers with the shared engine subcommands."""
    engines.HANDLERS[("exchange", "mythras")] = _exchange
    engines.HANDLERS[("initiative", "mythras")] = _initiative
