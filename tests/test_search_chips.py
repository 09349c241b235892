"""The search panel's suggestion chips, hints and contents (headless): a chip replaces the word it
completes or corrects, whatever punctuation follows, and says what it is; the hints speak of the
panel (its Contents, the Tables and Glossary tabs) and of the chosen ruleset's own examples."""

from __future__ import annotations

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb import complete, search
from ruleslawyer.rulesdb.lookup import example_questions, toc
from ruleslawyer.widgets.search import BROWSE_ADVICE, SearchPanel, chip_queries, replace_word, word_spans


def shown(buttons):
    return [b.description for b in buttons if b.layout.display is None]


# ------------------------------------------------------------------ the pure replacement

@pytest.mark.parametrize("query, word, expected", [
    ("What happens at 0 health?", "healthy", "What happens at 0 healthy?"),
    ("can I parr?", "parry", "can I parry?"),
    ("can I parr", "parry", "can I parry"),
    ("parr!?!", "parry", "parry!?!"),
    ("parr...  ", "parry", "parry...  "),
    ("(parr)", "parry", "(parry)"),
    ('"fighting o"', "on", '"fighting on"'),
    ("parr*", "parry", "parry*"),
    ("fighting tra", "trauma", "fighting trauma"),
    ("knock-ba?", "knock-back", "knock-back?"),
    ("attacker's", "attacker", "attacker"),
    ("la défen?", "défense", "la défense?"),
    ("la de\u0301fen?", "défense", "la défense?"),   # a decomposed accent stays in its word
    ("Séan", "séance", "séance"),
    ("", "parry", "parry"),
    ("?!", "parry", "?! parry"),
    ("   ", "parry", "   parry"),
])
def test_replace_word_replaces_the_last_word_and_keeps_the_punctuation(query, word, expected):
    assert replace_word(query, word) == expected


def test_replace_word_at_an_index_and_past_the_words():
    assert replace_word("can I parr the blow?", "parry", 2) == "can I parry the blow?"
    assert replace_word("can I parr the blow?", "Can", 0) == "Can I parr the blow?"
    assert replace_word("a b", "c", 5) == "a b c"
    assert word_spans("can I parr?") == [(0, 3), (4, 5), (6, 10)]
    assert word_spans("—, ?") == []


def test_chips_complete_the_last_word_correct_the_word_they_match_and_skip_held_words():
    assert chip_queries("What happens at 0 health?", ["health", "healthy"], kind="complete") == [
        ("healthy", "What happens at 0 healthy?")]  # "health" is held in full: no chip
    assert chip_queries("can I parr?", ["parry", "parries"], kind="complete") == [
        ("parry", "can I parry?"), ("parries", "can I parries?")]
    # a correction replaces the word it corrects, not the last one
    assert chip_queries("flankng attack?", ["flanking"], kind="correct") == [("flanking", "flanking attack?")]
    assert chip_queries("parry the blwo", ["blow"], kind="correct") == [("blow", "parry the blow")]
    # held words: case and accents aside
    assert chip_queries("Parry", ["parry"], kind="correct") == []
    assert chip_queries("la défense", ["defense"], kind="complete") == []
    with pytest.raises(RulesInputError) as err:
        chip_queries("x", ["y"], kind="swap")
    assert err.value.field == "kind"


# ------------------------------------------------------------------ the panel

def test_an_example_question_offers_no_chip_for_its_held_last_word():
    panel = SearchPanel()
    i = next(i for i, b in enumerate(panel.example_buttons) if b.description == "What happens at 0 health?")
    panel.example_buttons[i].click()
    assert panel.query.value == "What happens at 0 health?"
    assert "health" not in shown(panel.suggestion_buttons)
    for b in panel.suggestion_buttons:  # whatever else is offered completes "health", keeping the "?"
        if b.layout.display is None:
            before = panel.query.value
            b.click()
            assert panel.query.value == f"What happens at 0 {b.description}?" and "?health" not in panel.query.value
            panel.query.value = before


def test_a_completion_chip_says_what_it_is_and_replaces_the_last_word():
    panel = SearchPanel("can I parr?")
    words = [w for w in complete("can I parr?") if w != "parr"]
    assert shown(panel.suggestion_buttons) == words[:len(shown(panel.suggestion_buttons))] and "parry" in words
    assert panel.suggestion_label.value == '<span class="rl-hint">Complete:</span>'
    assert panel.suggestion_label.layout.display is None
    i = shown(panel.suggestion_buttons).index("parry")
    assert panel.suggestion_buttons[i].tooltip == "Complete: parry (search: can I parry?)"
    panel.suggestion_buttons[i].click()
    assert panel.query.value == "can I parry?"
    assert "parry" not in shown(panel.suggestion_buttons)  # now held in full


def test_a_did_you_mean_chip_says_so_and_corrects_its_word():
    panel = SearchPanel("what is hlth?")
    assert panel.results.suggestions == ("health",) and not panel.results.hits
    assert panel.suggestion_label.value == '<span class="rl-hint">Did you mean:</span>'
    assert shown(panel.suggestion_buttons) == ["health"]
    assert panel.suggestion_buttons[0].tooltip == "Did you mean: health (search: what is health?)"
    panel.suggestion_buttons[0].click()
    assert panel.query.value == "what is health?" and panel.results.hits


def test_no_chip_label_when_there_are_no_chips():
    panel = SearchPanel("fighting on ")
    assert shown(panel.suggestion_buttons) == [] and panel.suggestion_label.layout.display == "none"


def test_the_no_match_hint_says_what_to_do_in_the_panel_and_the_cli_keeps_its_own():
    panel = SearchPanel("xylophone")
    results = search("xylophone", None)
    assert results.plain_hint == "No rules match 'xylophone'. Try a broader or different word (the book's own term)."
    assert "`ruleslawyer tables`" in results.hint and "`ruleslawyer define TERM`" in results.hint  # the CLI's
    status = panel.status.value
    assert "ruleslawyer" not in status and "Contents" in status and "Tables tab" in status
    assert "Glossary tab" in status
    assert BROWSE_ADVICE.replace("'", "&#x27;") in status


def test_every_hint_has_a_context_free_form_without_commands():
    for q in ("", "   ", "?!", "xylophone", "flankng", "trauma"):
        for rs in (None, "mythras"):
            r = search(q, rs)
            if r.hint:
                assert r.plain_hint and "ruleslawyer" not in r.plain_hint and "`" not in r.plain_hint, (q, rs)
            else:
                assert r.plain_hint == ""
            assert r.to_dict()["plain_hint"] == r.plain_hint


@pytest.mark.parametrize("ruleset", ["mythras", "darkmaster", "mastery", ""])
def test_the_empty_box_hint_uses_the_chosen_rulesets_own_examples(ruleset):
    panel = SearchPanel("", ruleset)
    status = panel.status.value
    for q in example_questions(ruleset or None, 2):
        assert q.replace("'", "&#x27;") in status
    if ruleset == "mythras":
        assert "fighting on" not in status and "trauma" not in status.lower()
    panel.ruleset.value = "darkmaster"
    assert example_questions("darkmaster", 1)[0].replace("'", "&#x27;") in panel.status.value


# ------------------------------------------------------------------ contents

def test_contents_replace_the_hits_while_open_indented_by_level():
    panel = SearchPanel("parry", "mastery")
    assert panel._hits_box.layout.display is None
    panel.contents_toggle.value = True
    assert panel.contents.layout.display is None and panel._hits_box.layout.display == "none"
    entries = toc("mastery")
    assert [b.tooltip for b in panel.contents.children] == [e.id for e in entries]
    for b, e in zip(panel.contents.children, entries):
        assert b.layout.margin == f"0 0 0 {(e.level - 1) * 18}px"
        assert "rl-toc-entry" in b._dom_classes
    assert panel.contents.layout.max_height == "70vh" and panel.contents.layout.overflow == "auto"
    panel.contents_toggle.value = False
    assert panel.contents.layout.display == "none" and panel._hits_box.layout.display is None


def test_changing_the_ruleset_clears_a_rule_of_another_ruleset():
    panel = SearchPanel("", "mastery")
    panel.show("mastery/combat/death/fighting-on#2")
    assert panel.shown and "fighting-on#2" in panel.output.value
    panel.ruleset.value = "mastery"  # no change
    panel.ruleset.value = ""  # every ruleset: the rule may stay
    assert panel.shown == "mastery/combat/death/fighting-on#2"
    panel.ruleset.value = "mythras"
    assert panel.shown is None and "fighting-on" not in panel.output.value and panel.xrefs == ()
    assert panel.frame.summary == ""
    mythras_rule = toc("mythras")[1].id
    panel.show(mythras_rule)
    panel.ruleset.value = "mythras"
    assert panel.shown == mythras_rule


def test_every_rulesets_contents_name_the_ruleset_of_each_chapter():
    panel = SearchPanel()
    panel.contents_toggle.value = True
    entries = toc(None)
    titles = {"mastery": "Mastery", "mythras": "Mythras", "darkmaster": "Against the Darkmaster"}
    for b, e in zip(panel.contents.children, entries):
        if e.level == 1 and e.ruleset in titles:
            assert b.description == f"{e.title} ({titles[e.ruleset]})"
        elif e.level > 1:
            assert b.description == e.title
    panel.ruleset.value = "mythras"
    assert [b.description for b in panel.contents.children] == [e.title for e in toc("mythras")]
