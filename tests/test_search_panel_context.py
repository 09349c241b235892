"""A GM's context in the search panel: example questions in the empty box, the table of contents,
cross-references as links, and the panel's ruleset kept as the session's default."""

from __future__ import annotations

import pytest

from ruleslawyer import registry
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb import search
from ruleslawyer.rulesdb.lookup import (GENERIC_EXAMPLES, example_questions, session_ruleset, set_session_ruleset,
                                        toc)
from ruleslawyer.rulesdb.xrefs import Reference, keep_links, references
from ruleslawyer.widgets import SearchPanel


@pytest.fixture(autouse=True)
def _no_session_left():
    """Each test starts and ends with no session ruleset on the default handle."""
    set_session_ruleset(None)
    yield
    set_session_ruleset(None)


def shown(buttons):
    return [b.description for b in buttons if b.layout.display is None]


# ---------------------------------------------------------------------------- cross-references (data)

def test_a_see_reference_in_the_chapter_leads_to_its_section():
    # "Realistic: a Trauma occurs ... at 0 health and fighting on (see Fighting On). This is the default rule."
    refs = references("mastery/combat/wounds-injuries-and-trauma/trauma-table#2")
    assert refs == (Reference("mastery/combat/wounds-injuries-and-trauma/trauma-table#2", "Fighting On",
                              "mastery/combat/death/fighting-on", "Mastery › Combat › Death › Fighting On", 103),)


def test_a_reference_to_a_table_leads_to_the_tables_section():
    # "... but the Trauma table's Close Call rows say no Trauma happens ..." (a prose reference, resolved to
    # the table mastery/combat/tables/trauma, which sits in the Trauma Table section)
    (ref,) = references("mastery/supplement/where-the-chapter-is-silent#11")
    assert (ref.text, ref.target_id, ref.start) == ("Trauma table", "mastery/combat/wounds-injuries-and-trauma/trauma-table",
                                                    144)


def test_links_of_a_supplement_unit_in_text_order():
    refs = references("mythras/supplement/difficulty-grades#5")
    assert [(r.text, r.target_id) for r in refs] == [
        ("Charge", "mythras/combat/charge-evade-outmanoeuvre#1"),
        ("burst fire", "mythras/combat/firearms-change-the-economy#1"),
        ("shooting into a melee", "mythras/combat/ranged-combat#6")]
    (step,) = references("mastery/combat/action-points/initiative-phases#7")
    assert (step.text, step.target_id) == ("Combat Flow, step 2", "mastery/combat/combat-flow")


def test_references_to_other_books_are_not_links():
    # "... (see Magic Mastery, Duels) ... See Magic Mastery for full details." -- not in the database
    assert references("mastery/combat/actions-and-reactions/casting#4") == ()
    assert references("mastery/combat/death/reaching-0-health#2") == ()  # "(see Conditions)": another chapter
    assert references([]) == ()  # an unknown id raises (tests/test_hostile_lookup.py)


def test_keep_links_is_conservative():
    texts = {"a#1": "see Fighting On and the Trauma table, see Fighting On", "b#1": "nothing"}
    crumbs = {"s/fighting-on": "S › Fighting On", "s/trauma-table": "S › Trauma Table", "a#1": "A"}
    rows = [("a#1", "Fighting On", "s/fighting-on"), ("a#1", "Trauma table", "t/trauma"),
            ("a#1", "Magic Mastery", None), ("a#1", "Gone", "s/gone"), ("a#1", "itself", "a#1"),
            ("a#1", "again", "s/fighting-on"), ("zzz", "Fighting On", "s/fighting-on")]
    got = keep_links(rows, texts, crumbs, {"t/trauma": "s/trauma-table"})
    assert [(r.from_id, r.text, r.target_id, r.start) for r in got] == [
        ("a#1", "Fighting On", "s/fighting-on", 4), ("a#1", "Trauma table", "s/trauma-table", 24)]


# ---------------------------------------------------------------------------- examples and the session (data)

def test_example_questions_per_ruleset_and_generic_ones():
    assert example_questions("mastery") == registry.get_ruleset("mastery").examples
    assert example_questions("mythras", 2) == ("How does a parry work?", "What Special Effects can I choose?")
    assert example_questions(None) == ("What happens at 0 health?", "How does a parry work?",
                                       "What happens in the Assessment Phase?")
    # not registered (a house-rules ruleset): tests/test_hostile_lookup.py


def test_every_declared_example_finds_its_ruleset_s_rules():
    for rs in registry.rulesets():
        for q in rs.examples:
            hits = search(q, ruleset=rs.id, limit=3).hits
            assert hits and hits[0].ruleset == rs.id, (rs.id, q)
    assert search("What happens at 0 health?", ruleset="mastery").hits[0].id == "mastery/combat/death/reaching-0-health#1"


def test_the_session_ruleset_is_toc_s_default_and_none_still_means_every_ruleset():
    assert session_ruleset() is None and {e.ruleset for e in toc()} >= {"mastery", "mythras", "darkmaster"}
    assert set_session_ruleset("mythras") == "mythras"
    assert {e.ruleset for e in toc()} == {"mythras"} and toc()[0].id == "mythras/combat"
    assert len({e.ruleset for e in toc(None)}) >= 3 and {e.ruleset for e in toc("darkmaster")} == {"darkmaster"}
    with pytest.raises(RulesInputError, match="ruleset: unknown ruleset 'dnd'"):
        set_session_ruleset("dnd")
    assert session_ruleset() == "mythras"
    assert set_session_ruleset("") is None and session_ruleset() is None


# ---------------------------------------------------------------------------- the panel (headless)

def test_the_empty_box_offers_the_ruleset_s_example_questions():
    panel = SearchPanel(ruleset="mythras")
    assert shown(panel.example_buttons) == list(registry.get_ruleset("mythras").examples)
    assert panel._examples_box.layout.display is None
    assert panel.query.placeholder == "Ask a rules question, e.g. How does a parry work?"
    panel.example_buttons[2].click()
    assert panel.query.value == "How do I charge?"
    assert panel.results.hits[0].id == "mythras/combat/charge-evade-outmanoeuvre#1"
    assert panel._examples_box.layout.display == "none"
    panel.query.value = ""
    assert panel._examples_box.layout.display is None


def test_the_contents_list_the_sections_indented_and_a_click_shows_one():
    panel = SearchPanel(ruleset="mastery")
    assert panel.contents.layout.display == "none" and panel.toc_buttons == []
    panel.contents_toggle.value = True
    entries = toc("mastery")
    assert [b.description for b in panel.contents.children] == [e.title for e in entries]
    death = [e.id for e in entries].index("mastery/combat/death/fighting-on")
    button = panel.contents.children[death]
    assert button.tooltip == "mastery/combat/death/fighting-on" and button.layout.margin == "0 0 0 36px"
    button.click()
    assert panel.shown == "mastery/combat/death/fighting-on"
    assert 'data-rule-id="mastery/combat/death/fighting-on#2"' in panel.output.value
    panel.ruleset.value = "darkmaster"
    assert panel.contents.children[0].tooltip == "darkmaster/combat"
    assert len(panel.contents.children) == len(toc("darkmaster"))


def test_a_shown_rule_s_cross_references_are_buttons_that_show_the_target():
    panel = SearchPanel(ruleset="mastery")
    panel.show("mastery/combat/wounds-injuries-and-trauma/trauma-table")
    assert shown(panel.xref_buttons) == ["Fighting On →"]
    assert panel.xref_buttons[0].tooltip == "Mastery › Combat › Death › Fighting On [mastery/combat/death/fighting-on]"
    panel.xref_buttons[0].click()
    assert panel.shown == "mastery/combat/death/fighting-on"
    assert panel.frame.summary == "Mastery › Combat › Death › Fighting On [mastery/combat/death/fighting-on]"
    panel.show("mastery/combat/actions-and-reactions/casting#4")  # Magic Mastery only: no link
    assert shown(panel.xref_buttons) == [] and panel._xref_box.layout.display == "none"
    panel.show("no/such#1")
    assert "rl-error" in panel.output.value and shown(panel.xref_buttons) == []


def test_picking_a_ruleset_in_the_panel_sets_the_session_default():
    panel = SearchPanel()
    assert session_ruleset() is None  # building a panel sets nothing
    panel.ruleset.value = "darkmaster"
    assert session_ruleset() == "darkmaster" and {e.ruleset for e in toc()} == {"darkmaster"}
    panel.ruleset.value = ""
    assert session_ruleset() is None


def test_a_panel_choice_is_the_next_search_s_default():
    panel = SearchPanel()
    panel.ruleset.value = "mythras"
    hits = search("parry").hits
    assert hits and {h.ruleset for h in hits} == {"mythras"}


def test_search_follows_the_session_ruleset_and_none_still_means_every_ruleset(tmp_path, shipped_db):
    from ruleslawyer.rulesdb import open_rules
    from ruleslawyer.rulesdb.session import SESSION

    other = open_rules(shipped_db(tmp_path / "other.db"))
    set_session_ruleset("darkmaster")
    assert {h.ruleset for h in search("parry", limit=20)} == {"darkmaster"}
    assert {h.ruleset for h in search("parry", SESSION, limit=20)} == {"darkmaster"}
    # None given: every ruleset, whatever the session says
    assert {h.ruleset for h in search("parry", None, limit=30)} >= {"mastery", "mythras", "darkmaster"}
    # an explicit ruleset wins over the session's
    assert {h.ruleset for h in search("parry", "mythras", limit=20)} == {"mythras"}
    # the default is the handle's: another database's handle has none
    assert {h.ruleset for h in search("parry", limit=30, rules=other)} >= {"mastery", "mythras", "darkmaster"}
