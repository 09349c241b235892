"""Tests for ruleslawyer.trace and ruleslawyer.errors."""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from enum import StrEnum

import pytest

import ruleslawyer.dice  # noqa: F401  (registers kit.explosion-cap before the registry is snapshotted)
from ruleslawyer import trace
from ruleslawyer.errors import DiceScriptError, RulesInputError, RulingError
from ruleslawyer.trace import (
    Citation,
    Ruling,
    RulingUse,
    Step,
    StepKind,
    TracedResult,
    registered_rulings as all_rulings,
    check_overrides,
    get_ruling,
    register,
    resolve_ruling,
)


@pytest.fixture(autouse=True)
def isolated_registry():
    """Keep test rulings out of the process-wide registry."""
    saved = dict(trace._REGISTRY)
    yield
    trace._REGISTRY.clear()
    trace._REGISTRY.update(saved)


def make_ruling(**kw) -> Ruling:
    fields = dict(
        id="testset.failed-defense-damage",
        ruleset="testset",
        question="What damage does a failed active defense take?",
        default="full",
        alternatives=("attack-minus-defense", "none"),
        provenance="source-silent",
        explanation="The chapter stops before saying.",
        cites=("mastery/combat/defense#3",),
    )
    fields.update(kw)
    return Ruling(**fields)


# --------------------------------------------------------------------------- errors


def test_rules_input_error_reads_field_colon_message():
    err = RulesInputError("attacker.tier", "tier must be an integer from 1 to 6, got 0")
    assert str(err) == "attacker.tier: tier must be an integer from 1 to 6, got 0"
    assert err.field == "attacker.tier"
    assert isinstance(err, ValueError)


def test_error_hierarchy_and_pickling():
    for cls in (DiceScriptError, RulingError):
        err = cls("dice.attack", "ran out")
        assert isinstance(err, RulesInputError) and isinstance(err, ValueError)
        again = pickle.loads(pickle.dumps(err))
        assert type(again) is cls and str(again) == "dice.attack: ran out" and again.field == "dice.attack"


# --------------------------------------------------------------------------- steps


def test_step_kind_values_are_lowercase():
    assert [k.value for k in StepKind] == [
        "roll", "modifier", "compare", "rule", "ruling", "result", "info", "error",
    ]
    assert StepKind.ROLL == "roll"


def test_step_of_accepts_plain_values():
    child = Step.of("roll", "Tier die", 3)
    step = Step.of(
        StepKind.RESULT,
        "Trial",
        True,
        cites=["mastery/combat/trials#1", Citation("mastery/combat/trials#2", "ties")],
        rulings=[RulingUse("mastery.trial-ties", "succeeds")],
        children=[child],
    )
    assert step.kind is StepKind.RESULT
    assert step.cites == (Citation("mastery/combat/trials#1"), Citation("mastery/combat/trials#2", "ties"))
    assert step.children == (child,)
    assert isinstance(step.children, tuple)
    # A single string is one citation, not a string of characters.
    assert Step.of("rule", "x", cites="a/b#1").cites == (Citation("a/b#1"),)


def test_step_rejects_bad_input():
    with pytest.raises(RulesInputError, match="unknown step kind 'dice'"):
        Step.of("dice", "x")
    with pytest.raises(RulesInputError):
        Step.of("roll", "x", cites=[""])
    with pytest.raises(RulesInputError):
        Step.of("roll", "x", children=["not a step"])
    with pytest.raises(RulesInputError):
        Step.of("roll", "x", rulings=[("mastery.x", "a")])


def tree() -> Step:
    #        A
    #      /   \
    #     B     C
    #     |
    #     D
    d = Step.of("roll", "D", 4, cites=["r/x#1"], rulings=[RulingUse("m.two", "b")])
    b = Step.of("modifier", "B", -1, cites=["r/x#2", "r/x#1"], children=[d])
    c = Step.of("result", "C", "hit", cites=["r/x#3"], rulings=[RulingUse("m.one", "a")])
    return Step.of("info", "A", cites=["r/x#2"], rulings=[RulingUse("m.two", "b")], children=[b, c])


def test_walk_is_depth_first_parents_first():
    assert [s.label for s in tree().walk()] == ["A", "B", "D", "C"]


def test_cited_and_ruling_ids_cover_the_tree_once_each_in_walk_order():
    t = tree()
    assert t.cited_ids() == ("r/x#2", "r/x#1", "r/x#3")
    assert t.ruling_ids() == ("m.two", "m.one")
    assert t.ruling_uses() == (RulingUse("m.two", "b"), RulingUse("m.one", "a"))


def test_step_to_dict_json_round_trip():
    t = tree()
    d = t.to_dict()
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    assert d["kind"] == "info"
    assert d["children"][0]["children"][0] == {
        "kind": "roll",
        "label": "D",
        "value": 4,
        "detail": "",
        "cites": [{"rule_id": "r/x#1", "note": ""}],
        "rulings": [{"ruling_id": "m.two", "answer": "b"}],
        "children": [],
    }
    assert Step.from_dict(json.loads(json.dumps(d))) == t


class Grade(StrEnum):
    HARD = "hard"


@dataclass(frozen=True)
class Pair:
    low: int
    high: int


def test_step_values_become_json_safe():
    step = Step.of("roll", "x", value={"faces": (4, 4, 1), "grade": Grade.HARD, "span": Pair(1, 3),
                                       "odd": float("inf"), 3: frozenset({2, 1})})
    d = step.to_dict()
    assert d["value"] == {"faces": [4, 4, 1], "grade": "hard", "span": {"low": 1, "high": 3},
                          "odd": "inf", "3": [1, 2]}
    json.dumps(d, allow_nan=False)


# --------------------------------------------------------------------------- rulings


def test_ruling_answers_and_to_dict():
    r = make_ruling()
    assert r.answers == ("full", "attack-minus-defense", "none")
    d = r.to_dict()
    assert d["answers"] == ["full", "attack-minus-defense", "none"]
    assert d["alternatives"] == ["attack-minus-defense", "none"]
    assert json.loads(json.dumps(d)) == d


@pytest.mark.parametrize(
    "provenance",
    ["source-silent", "kit default", "published rules outside the source: Mythras Imperative"],
)
def test_ruling_accepts_the_three_provenances(provenance):
    assert make_ruling(provenance=provenance).provenance == provenance


@pytest.mark.parametrize(
    "provenance", ["", "guess", "published rules outside the source: ", "Source-Silent"]
)
def test_ruling_rejects_other_provenances(provenance):
    with pytest.raises(RulesInputError, match="provenance"):
        make_ruling(provenance=provenance)


def test_ruling_rejects_repeated_or_empty_answers():
    with pytest.raises(RulesInputError, match="distinct"):
        make_ruling(alternatives=("none", "full"))
    with pytest.raises(RulesInputError):
        make_ruling(default="")


def test_register_is_idempotent_but_refuses_conflicts():
    r = register(make_ruling())
    assert register(make_ruling()) is not None  # a module reload re-registers the same thing
    assert get_ruling(r.id) == r
    with pytest.raises(ValueError, match="already registered"):
        register(make_ruling(default="none", alternatives=("full",)))
    with pytest.raises(TypeError):
        register("testset.x")  # type: ignore[arg-type]


def test_get_ruling_unknown_raises_ruling_error():
    with pytest.raises(RulingError, match="unknown ruling 'testset.nope'") as exc:
        get_ruling("testset.nope")
    assert exc.value.field == "rulings"
    assert isinstance(exc.value, ValueError)


def test_all_rulings_sorted_and_filtered():
    register(make_ruling(id="testset.zeta"))
    register(make_ruling(id="testset.alpha"))
    register(make_ruling(id="otherset.mid", ruleset="otherset"))
    assert [r.id for r in all_rulings("testset")] == ["testset.alpha", "testset.zeta"]
    ids = [r.id for r in all_rulings()]
    assert ids == sorted(ids)
    assert {"testset.alpha", "testset.zeta", "otherset.mid"} <= set(ids)


def test_resolve_ruling_default_and_override():
    register(make_ruling())
    rid = "testset.failed-defense-damage"
    assert resolve_ruling(rid) == RulingUse(rid, "full")
    assert resolve_ruling(rid, {}) == RulingUse(rid, "full")
    assert resolve_ruling(rid, {"other.ruling": "x"}) == RulingUse(rid, "full")
    assert resolve_ruling(rid, {rid: "none"}) == RulingUse(rid, "none")


def test_resolve_ruling_rejects_answer_not_allowed_and_lists_the_answers():
    register(make_ruling())
    rid = "testset.failed-defense-damage"
    with pytest.raises(RulingError) as exc:
        resolve_ruling(rid, {rid: "half"})
    msg = str(exc.value)
    assert exc.value.field == f"rulings.{rid}"
    assert "'half'" in msg
    for answer in ("full", "attack-minus-defense", "none"):
        assert repr(answer) in msg
    with pytest.raises(RulingError):
        resolve_ruling("testset.unknown", {"testset.unknown": "full"})


def test_check_overrides():
    register(make_ruling())
    rid = "testset.failed-defense-damage"
    check_overrides(None)
    check_overrides({rid: "none"}, ruleset="testset")
    with pytest.raises(RulingError, match="unknown ruling"):
        check_overrides({"testset.typo": "none"})
    with pytest.raises(RulingError, match="not 'mythras'"):
        check_overrides({rid: "none"}, ruleset="mythras")
    with pytest.raises(RulingError, match="not allowed"):
        check_overrides({rid: "half"})


def test_explosion_cap_ruling_is_registered_as_kit_default():
    saved = trace._REGISTRY.get("kit.explosion-cap")
    assert saved is not None and saved.provenance == "kit default" and saved.default == "20"


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Exchange(TracedResult):
    damage: int
    grade: Grade
    span: Pair
    faces: tuple[int, ...]
    note: str | None
    trace: Step


def test_traced_result_to_dict_json_round_trip():
    res = Exchange(7, Grade.HARD, Pair(2, 9), (4, 4, 1), None, tree())
    d = res.to_dict()
    assert d == {
        "damage": 7,
        "grade": "hard",
        "span": {"low": 2, "high": 9},
        "faces": [4, 4, 1],
        "note": None,
        "trace": tree().to_dict(),
    }
    assert json.loads(json.dumps(d, allow_nan=False)) == d


def test_traced_result_nested_result_uses_its_to_dict():
    @dataclass(frozen=True)
    class Outer(TracedResult):
        inner: Exchange
        trace: Step

    inner = Exchange(1, Grade.HARD, Pair(1, 1), (), "x", Step.of("result", "inner"))
    d = Outer(inner, Step.of("result", "outer")).to_dict()
    assert d["inner"]["trace"]["label"] == "inner"
    assert d["trace"]["label"] == "outer"


def test_traced_result_needs_a_dataclass():
    class NotADataclass(TracedResult):
        pass

    with pytest.raises(TypeError):
        NotADataclass().to_dict()


# --------------------------------------------------------------------------- purity


def test_core_modules_stay_pure_and_export_what_they_list():
    import ast
    import importlib
    from pathlib import Path

    import ruleslawyer

    forbidden = {"sqlite3", "pandas", "ipywidgets", "IPython"}
    pkg = Path(ruleslawyer.__file__).parent
    for name in ("trace", "dice", "render", "errors"):
        tree = ast.parse((pkg / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert not roots & forbidden, f"{name}.py imports {roots & forbidden}"
        module = importlib.import_module(f"ruleslawyer.{name}")
        assert module.__all__ and all(hasattr(module, n) for n in module.__all__)
