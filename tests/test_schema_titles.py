"""The title of every ``--schema`` document: the one its command gives, never a nested declaration's."""

from __future__ import annotations

import json

import pytest

from ruleslawyer.cli import main
from ruleslawyer.inputs import Int, Obj, json_schema
from ruleslawyer.registry import get_ruleset

RULESETS = ("mastery", "mythras", "darkmaster")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fight_schema_is_titled_ruleset_fight_input(ruleset, capsys):
    # "Mastery fight input", "Mythras fight input", "Against the Darkmaster fight input".
    assert main(["fight", ruleset, "--schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == f"{get_ruleset(ruleset).title} fight input"


def test_the_title_given_wins_over_the_declarations_own():
    inner = Obj({"n": Int("a number")}, "inner", title="Inner thing")
    outer = Obj({"inner": inner}, "outer", title="Outer thing")
    doc = json_schema(outer, "Outer thing input", "what it is")
    assert (doc["title"], doc["description"]) == ("Outer thing input", "what it is")
    assert doc["properties"]["inner"]["title"] == "Inner thing"  # a nested declaration keeps its title
    assert list(doc)[:2] == ["$schema", "title"]
    assert outer.schema()["title"] == "Outer thing"  # the declaration itself is not changed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_schema_a_ruleset_ships_is_titled_with_the_ruleset(ruleset):
    import importlib

    module = importlib.import_module(f"ruleslawyer.rulesets.{ruleset}.schema")
    docs = {name: getattr(module, name) for name in module.__all__ if name.endswith("_SCHEMA")}
    assert docs
    for name, doc in docs.items():
        assert doc["title"].startswith(get_ruleset(ruleset).title + " "), (name, doc["title"])
