"""The Mythras engine as a pipeline of short named stages, and the odds built on the same stages."""

from __future__ import annotations

import ast
from fractions import Fraction as F
from pathlib import Path

import ruleslawyer

SRC = Path(ruleslawyer.__file__).resolve().parent
MYTHRAS_FILES = [*sorted((SRC / "rulesets" / "mythras").rglob("*.py")), SRC / "odds" / "mythras.py",
                 SRC / "widgets" / "exchange_mythras.py"]


def test_no_function_over_80_lines():
    long = []
    for path in MYTHRAS_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > 80:
                    long.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name} ({n} lines)")
    assert not long, long


def test_the_pipeline_names_its_stages():
    from ruleslawyer.rulesets.mythras import exchange

    source = Path(exchange.__file__).read_text(encoding="utf-8")
    body = ast.get_source_segment(source, next(n for n in ast.parse(source).body
                                               if isinstance(n, ast.FunctionDef) and n.name == "resolve_exchange"))
    for stage in ("open_exchange", "attack_grade", "defence_stage", "over_100_stage", "attack_roll_stage",
                  "defence_roll_stage", "differential_stage", "effects_stage", "evade_stage", "stray_shot_stage",
                  "damage_stage", "spray_stage", "recorded_effects_stage", "ambushed_attacker_stage"):
        assert stage + "(" in body, stage


def test_hopeless_attack_has_no_odds_but_a_result():
    # Hopeless: no roll, so nothing connects; every distribution is "nothing happens"
    from ruleslawyer.odds.mythras import mythras_exchange_odds

    r = mythras_exchange_odds({"attacker": {"skill": 60, "difficulty": "Hopeless", "str_siz": 22},
                               "defender": {"defence": "none"}})
    assert (r.attack_skill, r.p_hit, r.damage[0], r.location["—"]) == (None, 0, F(1), F(1))
    assert r.effect_chance == {"attacker": {}, "defender": {}}
    assert r.to_dict()["p_hit"] == "0"


def test_counts_of_special_effects_read_as_words_and_an_empty_side_is_not_listed():
    from ruleslawyer.rulesets.mythras.special_effects import effects_count

    assert [effects_count(n) for n in (0, 1, 2, 3)] == ["0 Special Effects", "1 Special Effect", "2 Special Effects",
                                                        "3 Special Effects"]
    import json
    from pathlib import Path

    from ruleslawyer.rulesets.mythras import ExchangeInput, resolve_exchange

    # broadsword-vs-dagger: Ana's Critical against Bor's Success, one Effect for the attacker (Choose Location)
    data = json.loads((Path(__file__).resolve().parent.parent / "examples" / "mythras" / "broadsword-vs-dagger.json")
                      .read_text(encoding="utf-8"))
    result = resolve_exchange(ExchangeInput.from_dict(data), seed=data.get("seed"), script=data.get("dice"))
    steps = {s.label: s for s in result.trace.walk()}
    assert steps["4. Special Effects (chosen before damage and location)"].value == {"attacker": ["Choose Location"]}
    assert steps["3. Differential"].detail == "attacker 1 Special Effect, defender 0 Special Effects"
    assert "attacker wins 1 Special Effect;" in result.trace.detail
