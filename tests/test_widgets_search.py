"""Search panel and citation viewer, headless."""

from ruleslawyer.rulesdb import get_rule, search
from ruleslawyer.widgets import CitationViewer, SearchPanel
from ruleslawyer.widgets.base import esc

XSS = "<img src=x onerror=alert(1)>"


def shown(buttons):
    return [b.description for b in buttons if b.layout.display is None]


def shown_hits(panel):
    return [b.description for b, box in zip(panel.hit_buttons, panel._hit_boxes) if box.layout.display is None]


def test_typing_a_query_lists_ranked_hits_with_breadcrumb_snippet_and_id():
    panel = SearchPanel()
    panel.query.value = "fighting on"
    expected = search("fighting on", limit=10)
    assert len(shown_hits(panel)) == len(expected.hits) > 0
    first = expected.hits[0]
    assert panel.hit_buttons[0].description == first.breadcrumb
    assert panel.hit_buttons[0].tooltip == first.id
    assert f'<div class="rl-hit-snippet">{first.snippet}</div>' in panel.hit_snippets[0].value
    assert any("<mark>" in s.value for s in panel.hit_snippets)
    assert f'data-rule-id="{first.id}"' in panel.hit_snippets[0].value
    assert "hits for <b>fighting on</b>" in panel.status.value


def test_stemming_reaches_the_panel():
    panel = SearchPanel("parries")
    assert any("Parry" in b.description or "parry" in b.description.lower() for b in panel.hit_buttons)


def test_clicking_a_hit_shows_the_rule_in_context_with_its_citation():
    panel = SearchPanel('"fighting on"', ruleset="mastery")
    hit = panel.results.hits[0]
    panel.hit_buttons[0].click()
    assert panel.shown == hit.id
    rule = get_rule(hit.id)
    out = panel.output.value
    assert f'<div class="rl-unit rl-focus" data-rule-id="{esc(rule.id)}">{esc(rule.text)}' in out
    assert f'class="rl-cite" data-rule-id="{esc(rule.id)}"' in out
    assert esc(rule.breadcrumb) in out


def test_ruleset_filter_restricts_hits():
    panel = SearchPanel("attack", ruleset="mythras")
    assert panel.results.hits and all(h.ruleset == "mythras" for h in panel.results.hits)
    panel.ruleset.value = "darkmaster"
    assert panel.results.hits and all(h.ruleset == "darkmaster" for h in panel.results.hits)


def test_type_ahead_completes_the_last_word():
    panel = SearchPanel()
    panel.query.value = "fighting tra"
    words = shown(panel.suggestion_buttons)
    assert "trauma" in words or "trial" in words
    i = [b.description for b in panel.suggestion_buttons].index(words[0])
    panel.suggestion_buttons[i].click()
    assert panel.query.value == "fighting " + words[0]


def test_no_match_gives_the_hint_and_did_you_mean_buttons():
    panel = SearchPanel("qqxzv")
    assert not shown_hits(panel) and panel.results.hint
    # the panel's own words (its Contents, Tables and Glossary tabs), not the command line's
    assert esc(panel.results.plain_hint) in panel.status.value and "rl-error" not in panel.output.value
    assert "ruleslawyer tables" not in panel.status.value
    assert shown(panel.suggestion_buttons) == list(panel.results.suggestions)


def test_a_did_you_mean_button_replaces_the_query():
    panel = SearchPanel()
    panel._set_suggestions([("parry", "parry")])
    panel.suggestion_buttons[0].click()
    assert panel.query.value == "parry" and shown_hits(panel)


def test_empty_query_shows_the_hint_not_an_error():
    panel = SearchPanel("   ")
    assert "Type a word or a phrase" in panel.status.value and "rl-error" not in panel.output.value


def test_html_in_the_query_renders_as_text():
    panel = SearchPanel(XSS)
    html_out = panel.status.value + "".join(s.value for s in panel.hit_snippets) + panel.output.value
    assert "<img" not in html_out
    assert "&lt;img src=x onerror=alert(1)&gt;" in panel.status.value


def test_citation_viewer_shows_neighbours_and_reports_unknown_ids():
    viewer = CitationViewer("mastery/combat/death/fighting-on#2")
    assert 'rl-focus" data-rule-id="mastery/combat/death/fighting-on#2"' in viewer.output.value
    viewer.show("mastery/combat/death/fighting-on#99")
    assert "rl-error" in viewer.output.value and "no rule with id" in viewer.output.value


def test_a_gm_word_shows_how_it_reached_the_book():
    # "HP" is not the book's word; the search maps it to health and says so under the hit.
    panel = SearchPanel("HP")
    first = panel.results.hits[0]
    assert first.matched_via and "health" in first.matched_via[0]
    assert f'<div class="rl-via">{esc("; ".join(first.matched_via))}</div>' in panel.hit_snippets[0].value


def test_a_hit_found_through_its_heading_says_so_in_the_panel():
    panel = SearchPanel("fighting", "mastery")
    through_heading = [i for i, h in enumerate(panel.results.hits) if h.matched_heading]
    assert through_heading  # "fighting" reaches Fighting On's paragraphs through their heading
    for i, h in enumerate(panel.results.hits):
        shown = panel.hit_snippets[i].value
        if i in through_heading:
            assert 'matched in the heading: Death › <mark>Fighting</mark> On' in shown
        else:
            assert "matched in the heading" not in shown


def test_a_face_typed_shows_the_table_row_and_says_why():
    # "I rolled 96 on the trauma table": the Trauma Table row 86–99 first, with the line saying so
    panel = SearchPanel("I rolled 96 on the trauma table", ruleset="mastery")
    assert panel.hit_buttons[0].tooltip == "mastery/combat/wounds-injuries-and-trauma/trauma-table#58"
    shown = panel.hit_snippets[0].value
    assert '<div class="rl-via">roll: 96 is in 86–99 (Trauma Table)</div>' in shown
    assert "<mark>86</mark>" in shown and "<mark>99</mark>" in shown
