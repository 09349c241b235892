"""Hostile input to the engines through their JSON front door.

Every worked example under ``examples/`` is taken apart: each value in it (at every depth) is
replaced by garbage of every kind a user can type into JSON — null, strings, negative and huge
numbers, NaN, booleans, lists and objects — each key is deleted, an unknown key is added, and the
top-level fields get garbage too. Whatever the input, the engine either resolves it or raises a
:class:`~ruleslawyer.errors.RulesInputError` naming the field; never a ``TypeError``,
``AttributeError``, ``KeyError``, ``ZeroDivisionError`` or ``RecursionError``. Hypothesis then
injects random JSON values at random places.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import math
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.cli import build_parser
from ruleslawyer.commands import output
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import open_rules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

#: (command line, example file) pairs: every engine that reads a JSON input file.
CASES = [
    (["exchange", "mastery"], "mastery/exchange-melee.json"),
    (["exchange", "mastery"], "mastery/exchange-ranged.json"),
    (["exchange", "mastery"], "mastery/exchange-fighting-on.json"),
    (["sequence", "mastery"], "mastery/sequence.json"),
    (["mastery-ap"], "mastery/ap-torch.json"),
    (["exchange", "mythras"], "mythras/broadsword-vs-dagger.json"),
    (["exchange", "mythras"], "mythras/longbow-into-melee.json"),
    (["exchange", "mythras"], "mythras/surprise-ward.json"),
    (["initiative", "mythras"], "mythras/initiative.json"),
    (["sequence", "darkmaster"], "darkmaster/ambush-round.json"),
]

GARBAGE = [None, "x", "", -5, 0, 10**100, -(10**100), 1e308, math.nan, math.inf, True, 3.5, [], {}, [1, [2, {}]],
           {"a": {"b": None}}, "999999d999999"]

#: One of each kind, for the fields an example leaves out.
ABSENT_GARBAGE = [None, "x", -5, 10**100, math.nan, True, [], {}, [1, [2, {}]]]

#: Top-level keys an input may (or may not) have, each given garbage as well.
TOP_KEYS = ["rulings", "dice", "seed", "round", "side_roll", "startle_dc", "ambush_dc", "combatants",
            "attacker", "defender", "situation", "actions", "ap_per_round"]
TOP_GARBAGE = GARBAGE + [{"x": 1}, {"attack": "x"}, {"attack": [0]}, {"attack": [10**100]}, {"attack": [1.5]},
                         {"attack": None}, {"kit.explosion-cap": 5}, {"": ""}, ["a"], {"side": [7]}, {"side": []}]


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _copy(obj):
    """A copy of JSON data (dicts, lists and leaves) sharing nothing mutable with ``obj``; what
    ``copy.deepcopy`` gives for such data, at a fifth of its cost (the variants copy ~14,000 times)."""
    if isinstance(obj, dict):
        return {k: _copy(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_copy(v) for v in obj]
    return obj


def _set(obj, path, value):
    if not path:
        return value
    o = obj
    for p in path[:-1]:
        o = o[p]
    o[path[-1]] = value
    return obj


def _mastery_schemas() -> dict[str, dict]:
    """JSON-Schema-like ``properties`` trees for the Mastery inputs, from their dataclasses."""
    from dataclasses import fields

    from ruleslawyer.rulesets.mastery import Attack, Combatant, Situation

    def props(cls, **nested):
        return {"properties": {**{f.name: {} for f in fields(cls)}, **nested}}

    combatant = props(Combatant, attack=props(Attack))
    return {
        "exchange mastery": {"properties": {"attacker": combatant, "defender": combatant,
                                            "situation": props(Situation)}},
        "sequence mastery": {"properties": {"combatants": {"items": {"properties": {
            **{k: {} for k in ("name", "side", "unaware", "agility_tier", "perception_tier")},
            "declaration": {"properties": {k: {} for k in ("weapon", "attack", "switch_to", "style_speed", "spell",
                                                           "hold_to", "hold_trigger")}}}}}}},
        "mastery-ap": {"properties": {"actions": {"items": {"properties": {
            k: {} for k in ("adjust", "items", "use", "ap", "components")}}}}},
    }


def _schema_for(argv: list[str]) -> dict:
    """The input schema of a command: its fields, so that fields absent from an example get garbage too."""
    from ruleslawyer.rulesets.darkmaster.schema import SEQUENCE_SCHEMA
    from ruleslawyer.rulesets.mythras.schema import EXCHANGE_SCHEMA, INITIATIVE_SCHEMA

    return {"exchange mythras": EXCHANGE_SCHEMA, "initiative mythras": INITIATIVE_SCHEMA,
            "sequence darkmaster": SEQUENCE_SCHEMA, **_mastery_schemas()}[" ".join(argv)]


def _absent_fields(data, schema, path=()):
    """(path, key) of every field the schema knows that ``data`` leaves out, at every depth."""
    if isinstance(data, dict):
        known = (schema or {}).get("properties", {})
        for key in known:
            if key not in data:
                yield path, key
        for key, value in data.items():
            yield from _absent_fields(value, known.get(key), path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _absent_fields(value, (schema or {}).get("items"), path + (i,))


def _variants(base: dict, schema: dict | None = None):
    """Every garbage variant of ``base``: (description, data)."""
    for path, key in _absent_fields(base, schema):
        for g in ABSENT_GARBAGE:
            d = _copy(base)
            o = d
            for p in path:
                o = o[p]
            o[key] = _copy(g)
            yield f"{path}+{key}={g!r}", d
    for k in TOP_KEYS:
        for g in TOP_GARBAGE:
            d = _copy(base)
            d[k] = _copy(g)
            yield f"{k}={g!r}", d
    for path in _paths(base):
        if path and path[0] == "description":
            continue
        for g in GARBAGE:
            yield f"{path}={g!r}", _set(_copy(base), path, _copy(g))
        if path:
            d = _copy(base)
            o = d
            for p in path[:-1]:
                o = o[p]
            del o[path[-1]]
            yield f"del {path}", d
            if isinstance(o, dict):
                d = _copy(base)
                o = d
                for p in path[:-1]:
                    o = o[p]
                o["no_such_field"] = 1
                yield f"{path[:-1]}.no_such_field", d


@functools.cache
def _parser():
    return build_parser()


@functools.cache
def _parsed(argv: tuple[str, ...]) -> argparse.Namespace:
    """The command line ``argv --input - --json``, parsed once (each run gets a copy)."""
    return _parser().parse_args([*argv, "--input", "-", "--json"])


def _encoded_not_printed(obj) -> None:
    """Stand-in for the command line's ``print_json``: the same document, encoded by its own
    ``json_text`` (NaN and infinities refused, other objects as ``str``), so it fails where printing
    would, but printed nowhere and not indented (indenting runs Python's pure-Python encoder: a fifth
    of this file's time)."""
    output.json_text(obj, indent=None)


def run_engine(argv: list[str], data, tmp_path: Path) -> None:
    """Run one engine command's handler on ``data``, given as ``--input -`` on standard input; let
    only RulesInputError (or a bad-input ValueError naming ``input``) out."""
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(data).encode("utf-8")), encoding="utf-8")
    args = argparse.Namespace(**vars(_parsed(tuple(argv))))
    args.rules = open_rules(args.db, args.house_rules)  # as ruleslawyer.cli.main does
    saved = sys.stdin, output.print_json
    sys.stdin, output.print_json = stdin, _encoded_not_printed  # the handlers import it when they print
    try:
        args.func(args)
    except RulesInputError:
        pass
    except ValueError as exc:
        if not str(exc).startswith("input:"):
            raise
    finally:
        sys.stdin, output.print_json = saved


@pytest.mark.parametrize(("argv", "example"), CASES, ids=[f"{' '.join(a)}:{e}" for a, e in CASES])
def test_every_garbage_variant_of_an_example_resolves_or_names_the_field(argv, example, tmp_path, capsys):
    base = json.loads((EXAMPLES / example).read_text(encoding="utf-8"))
    failures = []
    for what, data in _variants(base, _schema_for(argv)):
        try:
            run_engine(argv, data, tmp_path)
        except Exception as exc:  # noqa: BLE001 - collecting every escape
            failures.append(f"{what}: {type(exc).__name__}: {exc}")
        capsys.readouterr()
    assert not failures, f"{len(failures)} inputs escaped as non-RulesInputError:\n" + "\n".join(failures[:20])


_json = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(CASES), data=st.data())
def test_random_json_anywhere_resolves_or_names_the_field(case, data, tmp_path):
    argv, example = case
    base = json.loads((EXAMPLES / example).read_text(encoding="utf-8"))
    paths = [p for p in _paths(base) if p and p[0] != "description"]
    doc = base
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        try:
            doc = _set(doc, path, data.draw(_json))
        except (KeyError, IndexError, TypeError):
            pass  # an earlier replacement removed this path
    run_engine(argv, doc, tmp_path)


def test_mastery_dataclasses_built_in_python_check_every_field():
    """A notebook builds Combatant/Attack/Situation directly: every field's garbage is a RulesInputError
    from the dataclass itself (or resolves), not a TypeError deep in the exchange."""
    from dataclasses import fields

    from ruleslawyer.rulesets.mastery import Attack, Combatant, MagicPortion, Situation, resolve_exchange

    def fight(attacker_kw=None, attack_kw=None, defender_kw=None, situation_kw=None):
        attack = Attack(**{"kind": "melee", "tier": 3, "weapon": 2, **(attack_kw or {})})
        attacker = Combatant(**{"name": "A", "attack": attack, **(attacker_kw or {})})
        defender = Combatant(**{"name": "D", "attack": attack, **(defender_kw or {})})
        return resolve_exchange(attacker, defender, Situation(**{"counterattack": True, **(situation_kw or {})}),
                                seed=1)

    failures = []
    cases = [("attack_kw", f.name) for f in fields(Attack)] + [("attacker_kw", f.name) for f in fields(Combatant)] \
        + [("defender_kw", f.name) for f in fields(Combatant)] + [("situation_kw", f.name) for f in fields(Situation)]
    for where, name in cases:
        for g in GARBAGE + [[MagicPortion(2, "fire"), "x"]]:
            try:
                fight(**{where: {name: g}})
            except RulesInputError:
                pass
            except Exception as exc:  # noqa: BLE001 - collecting every escape
                failures.append(f"{where}.{name}={g!r}: {type(exc).__name__}: {exc}")
    for g in GARBAGE:
        for kw in ({"amount": g, "type": "fire"}, {"amount": 1, "type": g}):
            try:
                MagicPortion(**kw)
            except RulesInputError:
                pass
            except Exception as exc:  # noqa: BLE001
                failures.append(f"MagicPortion({kw!r}): {type(exc).__name__}: {exc}")
    assert not failures, f"{len(failures)} escaped:\n" + "\n".join(failures[:20])


def test_mythras_and_darkmaster_dataclasses_built_in_python_check_every_field():
    """The same for the Mythras exchange and initiative and the Darkmaster round, field by field."""
    import dataclasses

    from ruleslawyer.rulesets import darkmaster as D
    from ruleslawyer.rulesets import mythras as Y

    ex = Y.ExchangeInput.from_dict(json.loads((EXAMPLES / "mythras/broadsword-vs-dagger.json").read_text()))
    seq = D.SequenceInput.from_dict(json.loads((EXAMPLES / "darkmaster/ambush-round.json").read_text()))
    c0, a0 = seq.combatants[0], seq.combatants[0].actions[0]
    ic = Y.InitiativeCombatant.from_dict({"name": "A", "initiative_modifier": 12}, "c")
    r = dataclasses.replace
    runs = []
    for attr, cls in (("attacker", Y.Attacker), ("defender", Y.Defender)):
        runs += [(f"{cls.__name__}.{f.name}", lambda g, f=f, attr=attr: Y.resolve_exchange(
            r(ex, **{attr: r(getattr(ex, attr), **{f.name: g})}), seed=1)) for f in dataclasses.fields(cls)]
    runs += [(f"Weapon.{f.name}", lambda g, f=f: Y.resolve_exchange(
        r(ex, attacker=r(ex.attacker, weapon=r(ex.attacker.weapon, **{f.name: g}))), seed=1))
        for f in dataclasses.fields(Y.Weapon)]
    runs += [(f"InitiativeCombatant.{f.name}", lambda g, f=f: Y.roll_initiative(
        [r(ic, **{f.name: g}), r(ic, name="B")], seed=1)) for f in dataclasses.fields(Y.InitiativeCombatant)]
    runs += [(f"darkmaster Combatant.{f.name}", lambda g, f=f: D.sequence_round(
        D.SequenceInput((r(c0, **{f.name: g}), *seq.combatants[1:])))) for f in dataclasses.fields(D.Combatant)]
    runs += [(f"darkmaster Action.{f.name}", lambda g, f=f: D.sequence_round(D.SequenceInput(
        (r(c0, actions=(r(a0, **{f.name: g}), *c0.actions[1:])), *seq.combatants[1:]))))
        for f in dataclasses.fields(D.Action)]
    failures = []
    for what, run in runs:
        for g in GARBAGE:
            try:
                run(g)
            except RulesInputError:
                pass
            except Exception as exc:  # noqa: BLE001 - collecting every escape
                failures.append(f"{what}={g!r}: {type(exc).__name__}: {exc}")
    assert not failures, f"{len(failures)} escaped:\n" + "\n".join(failures[:20])
