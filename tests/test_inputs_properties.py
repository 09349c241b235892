"""Property tests of the one input layer: malformed inputs for every engine, through the command line's
own handlers (the real ``--input`` reader, the real engine).

Each example under ``examples/`` (and a trauma sheet) is mutated by Hypothesis: fields dropped,
renamed by a typo, retyped (text for booleans and numbers, floats, NaN and Infinity, huge numbers,
deep nesting, huge lists, objects for lists). Whatever comes out, the command either answers or
raises a :class:`~ruleslawyer.errors.RulesInputError` whose field is a path of the input (the field
itself, or a field of an object the input has: a cross-field check or a required field) — never any
other exception. Runs are bounded (``max_examples`` per engine, no deadline) so the file takes seconds.
"""

from __future__ import annotations

import argparse
import copy
import functools
import io
import json
import math
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.cli import build_parser
from ruleslawyer.commands import output
from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import at
from ruleslawyer.rulesdb.handle import open_rules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

SHEET = {"traumas": ["12: You lose an eye."], "lost": ["left eye"], "punctured_lungs": 1, "ap_per_round": 1}

#: (command line before the input file, input flag, example): every engine command that reads JSON.
CASES = [
    (["exchange", "mastery"], "--input", "mastery/exchange-melee.json"),
    (["exchange", "mastery"], "--input", "mastery/exchange-ranged.json"),
    (["exchange", "mastery"], "--input", "mastery/exchange-fighting-on.json"),
    (["sequence", "mastery"], "--input", "mastery/sequence.json"),
    (["mastery-ap"], "--input", "mastery/ap-torch.json"),
    (["trauma", "--roll", "50"], "--sheet", SHEET),
    (["exchange", "mythras"], "--input", "mythras/broadsword-vs-dagger.json"),
    (["exchange", "mythras"], "--input", "mythras/burst-fire.json"),
    (["exchange", "mythras"], "--input", "mythras/charge-set-spear.json"),
    (["exchange", "mythras"], "--input", "mythras/surprise-ward.json"),
    (["initiative", "mythras"], "--input", "mythras/initiative.json"),
    (["sequence", "darkmaster"], "--input", "darkmaster/ambush-round.json"),
    (["sequence", "darkmaster"], "--input", "darkmaster/weapons-by-name.json"),
]
IDS = [f"{' '.join(a)}:{e if isinstance(e, str) else 'sheet'}" for a, _, e in CASES]


def _example(example) -> object:
    return json.loads((EXAMPLES / example).read_text(encoding="utf-8")) if isinstance(example, str) else example


@functools.cache
def _parser():
    return build_parser()


@functools.cache
def _parsed(argv: tuple[str, ...], flag: str) -> argparse.Namespace:
    """The command line ``argv flag - --json`` (the JSON on standard input), parsed once (each run
    gets a copy)."""
    return _parser().parse_args([*argv, flag, "-", "--json"])


def _encoded_not_printed(obj) -> None:
    """Stand-in for the command line's ``print_json``: the same document, encoded by its own
    ``json_text`` (NaN and infinities refused, other objects as ``str``), so it fails where printing
    would, but printed nowhere and not indented (indenting runs Python's pure-Python encoder)."""
    output.json_text(obj, indent=None)


def run(argv: list[str], flag: str, data, folder: Path) -> RulesInputError | None:
    """Run one command's handler on ``data`` written as JSON (NaN and Infinity as JSON's extension
    writes them); the RulesInputError it raised, or None when it answered."""
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(data).encode("utf-8")), encoding="utf-8")
    args = argparse.Namespace(**vars(_parsed(tuple(argv), flag)))
    args.rules = open_rules(args.db, args.house_rules)  # as ruleslawyer.cli.main does
    saved = sys.stdin, sys.stdout, output.print_json
    # the handlers import print_json when they print; what else they write goes to a buffer
    sys.stdin, sys.stdout, output.print_json = stdin, io.StringIO(), _encoded_not_printed
    try:
        args.func(args)
    except RulesInputError as exc:
        return exc
    finally:
        sys.stdin, sys.stdout, output.print_json = saved
    return None


def paths(doc, field: str = "") -> set[str]:
    """Every field path of ``doc`` as errors spell it (``attacker.weapon.traits[0]``); a list of
    named objects under ``combatants`` also as ``combatants.<name>`` (Darkmaster names them so)."""
    out = {field or "input"}
    if isinstance(doc, dict):
        for k, v in doc.items():
            out |= paths(v, at(field, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out |= paths(v, at(field, i))
            if field == "combatants" and isinstance(v, dict) and isinstance(v.get("name"), str):
                out |= paths(v, f"combatants.{v['name']}")
    return out


def parent(field: str) -> str:
    """The object ``field`` is a field of: ``attacker.weapon.size`` -> ``attacker.weapon``."""
    cut = max(field.rfind("."), field.rfind("["))
    return field[:cut] if cut > 0 else "input"


def assert_names_the_input(exc: RulesInputError | None, doc, flag: str = "--input") -> None:
    """None (an answer), or an error naming a path of ``doc`` or a field of an object ``doc`` has
    (the fields of a ``--sheet`` file are ``sheet.<field>``)."""
    if exc is None:
        return
    known = paths(doc, "sheet" if flag == "--sheet" else "")
    # the field itself, a field of an object given (a cross-field check, a required field), or a field of
    # an optional section left out whose default needs it (situation.range for a crossbow)
    assert known & {exc.field, parent(exc.field), parent(parent(exc.field))}, (exc.field, exc.message)
    assert exc.message and len(str(exc)) < 2000, str(exc)[:300]


# --------------------------------------------------------------------------- mutations

def _slots(doc, prefix=()):
    """(container path, key) of every value in ``doc``."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield prefix, k
            yield from _slots(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield prefix, i
            yield from _slots(v, prefix + (i,))


def _holder(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _deep(depth: int):
    out: object = 1
    for _ in range(depth):
        out = [out]
    return out


GARBAGE = st.one_of(
    st.sampled_from(["false", "true", "0", "1", "2", "", "Hard", "fast", "x" * 5000]),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.5, 2.0, -1e308, 1e308]),
    st.sampled_from([10**6 + 1, -(10**6) - 1, 10**18, 10**40, -(10**40), 10**400, -1, 0, 1001]),
    st.sampled_from([True, False, None, [], {}, {"x": 1}, [[["x"]]]]),
    st.integers(min_value=1, max_value=400).map(_deep),
    st.sampled_from([[1] * 1001, ["x"] * 1500, [{}] * 1001, {f"k{i}": 1 for i in range(1001)}]),
)


def _typo(key: str, how: int) -> str:
    if not key:
        return "x"
    i = how % len(key)
    return key[:i] + key[i + 1:] if how % 3 else key[:i] + "x" + key[i:]


@st.composite
def mutated(draw, base):
    """``base`` with 1 to 3 mutations: a value retyped, a key dropped or misspelt, or a boolean given
    as text ("false")."""
    doc = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        slots = list(_slots(doc))
        if not slots:
            break
        path, key = draw(st.sampled_from(slots))
        holder = _holder(doc, path)
        kind = draw(st.sampled_from(["retype", "retype", "drop", "typo", "text-bool"]))
        if kind == "retype":
            holder[key] = copy.deepcopy(draw(GARBAGE))  # never the shared sample itself
        elif kind == "drop":
            del holder[key]
        elif kind == "typo" and isinstance(key, str):
            holder[_typo(key, draw(st.integers(0, 99)))] = holder.pop(key)
        elif kind == "text-bool":
            holder[key] = "false" if holder[key] is False else "true" if holder[key] is True else holder[key]
    return doc


@pytest.mark.parametrize(("argv", "flag", "example"), CASES, ids=IDS)
def test_malformed_inputs_answer_or_name_a_field_of_the_input(argv, flag, example, tmp_path):
    base = _example(example)
    assert run(argv, flag, base, tmp_path) is None  # the example itself answers

    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(doc=mutated(base))
    def check(doc):
        assert_names_the_input(run(argv, flag, doc, tmp_path), doc, flag)

    check()


@pytest.mark.parametrize(("argv", "flag", "example"), CASES, ids=IDS)
def test_every_boolean_given_as_text_is_refused_naming_it(argv, flag, example, tmp_path):
    """Point 9's whole kind: each boolean of each example, written as the text "false" or "true", is
    refused naming exactly that field (never read as true)."""
    base = _example(example)
    bools = [(p, k) for p, k in _slots(base) if isinstance(_holder(base, p)[k], bool)]
    for path, key in bools:
        doc = json.loads(json.dumps(base))
        holder = _holder(doc, path)
        holder[key] = json.dumps(holder[key])  # false -> "false"
        exc = run(argv, flag, doc, tmp_path)
        root = ["sheet"] if flag == "--sheet" else []
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in (*root, *path, key)).lstrip(".")
        named = re.sub(r"^combatants\[(\d+)\]", lambda m: f"combatants.{doc['combatants'][int(m[1])].get('name')}",
                       field)  # Darkmaster names a combatant by its name
        assert exc is not None and exc.field in (field, named) and "true or false" in exc.message, (field, exc)


@pytest.mark.parametrize(("argv", "flag", "example"), CASES, ids=IDS)
def test_every_misspelt_key_is_refused_with_a_did_you_mean(argv, flag, example, tmp_path):
    """Points 10 and 11's whole kind: every key of every object of each example (dice slots included),
    misspelt by one letter, is refused naming the misspelt key and offering the right one."""
    base = _example(example)
    keys = [(p, k) for p, k in _slots(base) if isinstance(k, str) and len(k) > 3 and k != "description"]
    assert keys
    for path, key in keys:
        typo = key[:-1]  # "attack" -> "attac"
        if re.fullmatch(r"[A-Z][a-z]+", key) or typo in _holder(base, path):  # a location name, not a field
            continue
        doc = json.loads(json.dumps(base))
        holder = _holder(doc, path)
        holder[typo] = holder.pop(key)
        exc = run(argv, flag, doc, tmp_path)
        assert exc is not None and exc.field.endswith(typo), (key, exc)
        assert f"did you mean {key!r}?" in exc.message, (key, exc.message)
