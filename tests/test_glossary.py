"""Glossary: terms the chapters define, extracted at build time, looked up by a GM's word."""

from __future__ import annotations

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb import all_ids, get_rule
from ruleslawyer.rulesdb.extract import find_definitions
from ruleslawyer.rulesdb.glossary import Definitions, define, glossary


@pytest.mark.parametrize("term, rule_id", [
    ("Engaged", "mastery/combat/additional-combat-rules#3"),
    ("Flanking", "mastery/combat/additional-combat-rules#2"),
    ("Allies", "mastery/combat/additional-combat-rules#1"),
    ("ally", "mastery/combat/additional-combat-rules#1"),
    ("Durability", "mastery/combat/additional-combat-rules/health-types#1"),
    ("Health", "mastery/combat/additional-combat-rules/health-types#2"),
    ("Reprisal Attack", "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2"),
    ("Positional Bonus", "darkmaster/combat/tactical-round-sequence/melee-phase#3"),
    ("Combat Style", "mythras/combat/combat-styles#1"),
    ("TRS", "darkmaster/combat/tactical-round-sequence#1"),
    ("AP", "mastery/combat/action-points#1"),
    ("rnd", "darkmaster/combat/the-tactical-round#2"),
])
def test_defined_terms(term, rule_id):
    result = define(term)
    assert isinstance(result, Definitions)
    assert result[0].rule_id == rule_id
    assert result[0].text == get_rule(rule_id).text  # quoted verbatim from the db


def test_a_term_defined_in_two_rulesets_lists_both_chapter_label_first():
    result = define("Engaged")
    assert [d.ruleset for d in result][:2] == ["mastery", "mythras"]
    assert result[0].style == "label"
    assert [d.rule_id for d in define("Engaged", ruleset="mythras")] == ["mythras/combat/action-menu-essentials#4"]


def test_synonym_reaches_the_definition_and_says_so():
    result = define("HP")
    assert result[0].rule_id == "mastery/combat/additional-combat-rules/health-types#2"
    assert result.via == ("synonym: HP → health",)


def test_unknown_term_is_an_empty_result_with_a_hint():
    # close defined terms when there are some
    r = define("flankin")
    assert not r and len(r) == 0 and r.suggestions == ("flanking",)
    assert r.hint == "No definition of 'flankin'. Close terms: flanking."
    # no close term, but the full-text search reaches it (grapple -> the Grip Effect, via a synonym)
    r = define("grapple", ruleset="mythras")
    assert not r and r.suggestions == ()
    assert r.hint.startswith("No definition of 'grapple' in mythras. A search of the mythras rules finds ")
    assert r.hint.endswith(": try `ruleslawyer search grapple`.")
    # nothing anywhere
    r = define("xylophone")
    assert r.hint == ("No definition of 'xylophone'. Nothing in the rules matches it either; try the book's own "
                      "term, or browse with `ruleslawyer tables`.")
    assert r.to_dict()["hint"] == r.hint and r.hint in r.to_markdown()
    # an empty term is still bad input
    with pytest.raises(RulesInputError, match="term"):
        define("  ")


def test_output_shapes():
    result = define("Engaged")
    d = result.to_dict()
    assert d["query"] == "Engaged" and d["definitions"][0]["rule_id"] == result[0].rule_id
    md = result.to_markdown()
    assert "> Engaged: If you attack" in md and "`[mastery/combat/additional-combat-rules#3]`" in md
    assert list(result.to_dataframe()["rule_id"]) == [x.rule_id for x in result]


def test_every_glossary_entry_cites_an_existing_unit():
    ids = all_ids()
    entries = glossary()
    assert len(entries) >= 40
    assert all(e.rule_id in ids for e in entries)
    assert {e.ruleset for e in entries} == {"mastery", "mythras", "darkmaster"}
    with pytest.raises(ValueError):
        glossary("dnd")


@pytest.mark.parametrize("text, expected", [
    ("Engaged: If you attack a creature.", [("Engaged", "engaged", "label")]),
    ("Durability. Durability is the amount.", [("Durability", "durability", "label")]),
    ("A Round (rnd) is a convention.", [("Round", "round", "sentence"), ("rnd", "rnd", "abbreviation")]),
    ("All combatants have 2 Action Points (AP) per round.",
     [("AP", "ap", "abbreviation"), ("Action Points", "action points", "abbreviation")]),
    ("When you reach 0 health:", []),
    ("Each Trauma is rolled on the table.", []),
])
def test_definition_patterns(text, expected):
    assert find_definitions("x", "paragraph", text) == expected


def test_rows_and_headings_define_nothing():
    assert find_definitions("x", "row", "Engaged: something") == []
    assert find_definitions("x", "heading", "Engaged: something") == []
