"""The lookup commands: compare, define, audit (text and --json), and their errors."""

from __future__ import annotations

import json

from ruleslawyer.cli import main
from ruleslawyer.rulesdb.glossary import terms_in


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_text_and_json(capsys):
    code, out, _ = run(capsys, "compare", "flanking")
    assert code == 0 and out.startswith("Flanking and positional advantage")
    assert "[mastery/combat/additional-combat-rules#2]" in out and "Positional Bonus." in out
    code, out, _ = run(capsys, "compare", "ambush", "--json")
    data = json.loads(out)
    assert data["concept"] == "surprise" and [c["ruleset"] for c in data["cells"]] == ["mastery", "mythras", "darkmaster"]


def test_compare_lists_concepts_and_rejects_unknown(capsys):
    code, out, _ = run(capsys, "compare")
    assert code == 0 and "round-length" in out and "dying" in out
    code, _, err = run(capsys, "compare", "grappling")
    assert code == 1 and err.startswith("ruleslawyer: error: no concept 'grappling'") and err.count("\n") == 1


def test_define_text_json_and_unknown(capsys):
    code, out, _ = run(capsys, "define", "Engaged")
    assert code == 0 and "[mastery/combat/additional-combat-rules#3]" in out and "Engaged means" in out
    code, out, _ = run(capsys, "define", "HP", "--json")
    data = json.loads(out)
    assert data["via"] == ["synonym: HP → health"]
    assert data["definitions"][0]["rule_id"] == "mastery/combat/additional-combat-rules/health-types#2"
    # a term nothing defines is "no results", not an error: exit 0 with what to try
    code, out, err = run(capsys, "define", "xylophone")
    assert (code, err) == (0, "")
    assert out == ("No definition of 'xylophone'. Nothing in the rules matches it either; try the book's own "
                   "term, or browse with `ruleslawyer tables`.\n")
    code, out, _ = run(capsys, "define", "flankin", "--json")
    data = json.loads(out)
    assert code == 0 and data["definitions"] == [] and data["suggestions"] == ["flanking"]
    assert data["hint"] == "No definition of 'flankin'. Close terms: flanking."


def test_audit_text_and_json(capsys):
    code, out, _ = run(capsys, "audit")
    assert code == 0 and out.startswith("# Source audit") and "There are four weapon lengths:" in out
    code, out, _ = run(capsys, "audit", "--ruleset", "darkmaster", "--json")
    data = json.loads(out)
    assert data["summary"]["truncated_lists"] == 2 and data["scope"]["rulesets"] == ["darkmaster"]


def test_terms_in_marks_capitalised_defined_terms():
    text = ("If you attack a creature or take either Durability or Health damage from a creature, "
            "you are Engaged with it. Spend 2 AP.")
    found = {text[a:b]: d.rule_id for a, b, d in terms_in(text, "mastery")}
    assert found == {"Durability": "mastery/combat/additional-combat-rules/health-types#1",
                     "Health": "mastery/combat/additional-combat-rules/health-types#2",
                     "Engaged": "mastery/combat/additional-combat-rules#3",
                     "AP": "mastery/combat/action-points#1"}
    assert terms_in("", "mastery") == []


def test_the_words_a_query_reached_through_are_one_line_per_typed_phrase():
    from ruleslawyer.commands.db import _via_lines

    assert _via_lines(["synonym: runs away → reprisal attack", "synonym: runs away → attack range",
                       "spelling: flankng → flanking", "synonym: HP → health"]) == [
        "via synonym: runs away → reprisal attack, attack range",
        "via spelling: flankng → flanking",
        "via synonym: HP → health"]
    assert _via_lines([]) == []
