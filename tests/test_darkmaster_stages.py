"""Against the Darkmaster engines are pipelines of short named stages (house style: no function over 80 lines)."""

from __future__ import annotations

import ast
from pathlib import Path

import ruleslawyer.rulesets.darkmaster as darkmaster
import ruleslawyer.widgets.rounds as rounds

FILES = [*sorted(Path(darkmaster.__file__).parent.glob("*.py")), Path(rounds.__file__)]


def test_no_function_over_80_lines():
    long = [f"{path.name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for path in FILES for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 80]
    assert long == []


def _called_names(fn) -> set[str]:
    """The plain names ``fn`` calls (its module's source, parsed)."""
    import inspect

    tree = ast.parse(Path(inspect.getsourcefile(fn)).read_text(encoding="utf-8"))
    (node,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == fn.__name__]
    return {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}


def test_the_entry_points_run_their_named_stages():
    from ruleslawyer.rulesets.darkmaster import actions, trs

    assert {"_assessment_stage", "_action_type_stage", "_combination_stage", "_parry_stage",
            "_penalty_stage"} <= _called_names(actions.check_declarations)
    assert {"_placement_stage", "_phase_stage"} <= _called_names(trs.sequence_round)
