"""Concordance: each ruleset's answer to the same question, every cell a cited rule that exists."""

from __future__ import annotations

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb import all_ids, get_rule
from ruleslawyer.rulesdb.concordance import UnknownConceptError, compare, concepts, concordance

REQUIRED = ["round-length", "actions-per-round", "initiative", "defending", "reactions", "flanking",
            "ranged-attacks", "surprise", "dying"]


def test_every_required_concept_is_there():
    assert [c["id"] for c in concepts()] == REQUIRED


@pytest.mark.parametrize("concept", REQUIRED)
def test_every_cell_cites_existing_rules_of_its_own_ruleset(concept):
    ids = all_ids()
    result = compare(concept)
    assert [c.ruleset for c in result.cells] == ["mastery", "mythras", "darkmaster"]
    for cell in result.cells:
        assert cell.summary and cell.cites
        for c in cell.cites:
            assert c.id in ids
            assert c.id.startswith(cell.ruleset + "/")
            assert c.text == get_rule(c.id).text


def test_round_length_cells_hold_the_numbers():
    result = compare("round length")
    texts = {c.ruleset: " ".join(x.text for x in c.cites) for c in result.cells}
    assert "10 Seconds" in texts["mastery"]
    assert "five-second Rounds" in texts["mythras"]
    assert "ten seconds" in texts["darkmaster"]


@pytest.mark.parametrize("alias, concept", [("ambush", "surprise"), ("positional advantage", "flanking"),
                                            ("parry", "defending"), ("init", "initiative"),
                                            ("Flanking and positional advantage", "flanking"),
                                            ("positional", "flanking")])
def test_aliases(alias, concept):
    assert compare(alias).concept == concept


def test_unknown_and_empty_concepts():
    with pytest.raises(UnknownConceptError, match="round-length"):
        compare("grappling")
    with pytest.raises(RulesInputError, match="concept"):
        compare("")


def test_shapes():
    result = compare("flanking")
    d = result.to_dict()
    assert d["concept"] == "flanking" and len(d["cells"]) == 3
    frame = result.to_dataframe()
    assert list(frame["ruleset"]) == ["Mastery", "Mythras", "Against the Darkmaster"]
    assert "mastery/combat/additional-combat-rules#2" in frame.loc[0, "rule_ids"]
    md = result.to_markdown()
    assert md.startswith("### Flanking") and "`[darkmaster/combat/tactical-round-sequence/melee-phase#3]`" in md
    grid = concordance()
    assert len(grid) == len(REQUIRED) and "Mythras ids" in grid.columns
