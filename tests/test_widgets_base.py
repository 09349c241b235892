"""The panel pattern: trace rendering with click-to-open citations, rulings bar, escaped errors."""

from ruleslawyer.errors import RulesInputError
from ruleslawyer import trace
from ruleslawyer.trace import Ruling, RulingUse, Step, StepKind
from ruleslawyer.widgets.base import PanelFrame, cite_html, error_html, esc, resolve_rule, trace_html, wrap_citations

FIGHTING_ON_2 = "mastery/combat/death/fighting-on#2"
XSS = "<img src=x onerror=alert(1)>"

TEST_RULING = Ruling(id="kit.test-widgets-ruling", ruleset="kit", question="Which answer does the test use?",
                     default="first", alternatives=("second",), provenance="kit default")


def test_trace_html_wraps_each_resolved_citation_in_details_with_the_verbatim_rule():
    from ruleslawyer.rulesdb import get_rule

    step = Step.of(StepKind.RESULT, "Fighting on", value=3, cites=[FIGHTING_ON_2])
    out = trace_html(step)
    rule = get_rule(FIGHTING_ON_2)
    assert out.count('<details class="rl-citation">') == 1
    assert f'data-rule-id="{FIGHTING_ON_2}"' in out
    assert f'<blockquote class="rl-quote">{esc(rule.text)}</blockquote>' in out
    assert "href=" not in out  # no navigation: the click opens the quote in place
    assert esc(rule.breadcrumb) in out


def test_unknown_citation_stays_a_bare_id_without_a_quote():
    out = trace_html(Step.of(StepKind.RULE, "x", cites=["mastery/combat/no-such-rule#9"]))
    assert "rl-quote" not in out and "<details" not in out
    assert "mastery/combat/no-such-rule#9" in out
    assert resolve_rule("mastery/combat/no-such-rule#9") is None


def test_trace_text_is_escaped():
    out = trace_html(Step.of(StepKind.RULE, XSS, value=[XSS, 1], detail=XSS))
    assert "<img" not in out
    assert out.count("&lt;img src=x onerror=alert(1)&gt;") == 3  # label, value and detail


def test_wrap_citations_leaves_text_without_quotes_alone():
    frag = '<a class="rl-cite" data-rule-id="a" title="a">a</a>'
    assert wrap_citations(frag) == frag


def test_cite_html_open_and_closed():
    assert cite_html(FIGHTING_ON_2, open_=True).startswith('<details class="rl-citation" open>')
    assert cite_html(FIGHTING_ON_2).startswith('<details class="rl-citation">')


def test_error_html_names_the_field_and_escapes():
    out = error_html(RulesInputError("attacker.tier", f"bad {XSS}"))
    assert '<b class="rl-field">attacker.tier</b>' in out and "<img" not in out
    assert "Traceback" not in error_html(ZeroDivisionError("division by zero"))
    assert "ZeroDivisionError: division by zero" in error_html(ZeroDivisionError("division by zero"))


def test_frame_guard_shows_the_error_instead_of_raising():
    frame = PanelFrame("t", [])

    def boom():
        raise RulesInputError("defender.skill", "skill must be 0 to 200, got -5")

    assert frame.guard(boom) is None
    assert "defender.skill" in frame.output.value and "rl-error" in frame.output.value


def test_rulings_bar_dropdown_reruns_with_the_override(monkeypatch):
    # registered for this test only, so no other test sees a ruling no engine uses
    monkeypatch.setitem(trace._REGISTRY, TEST_RULING.id, TEST_RULING)
    calls = []
    frame = PanelFrame("t", [], on_rulings_change=lambda: calls.append(dict(frame.rulings.overrides)))
    step = Step.of(StepKind.RULE, "uses a ruling", rulings=[RulingUse("kit.test-widgets-ruling", "first")])
    frame.show_trace(step)
    assert 'class="rl-ruling"' in frame.output.value  # the trace marks the ruling
    dd = frame.rulings.dropdowns["kit.test-widgets-ruling"]
    assert dd.options == ("first", "second") and dd.value == "first"
    assert calls == []  # showing a trace does not rerun
    dd.value = "second"
    assert calls == [{"kit.test-widgets-ruling": "second"}]
    dd.value = "first"  # back to the default: no override left
    assert calls[-1] == {}
    # a rerun showing the answer used does not trigger another run
    frame.show_trace(Step.of(StepKind.RULE, "again", rulings=[RulingUse("kit.test-widgets-ruling", "second")]))
    assert dd.value == "second" and len(calls) == 2


def test_css_is_shipped_and_styles_citations_and_rulings():
    from ruleslawyer.widgets.base import css

    text = css()
    assert "details.rl-citation" in text and ".rl-ruling" in text and ".rl-error" in text


def test_a_section_citation_quotes_the_sections_first_rules():
    from ruleslawyer.rulesdb import context

    from ruleslawyer.widgets.base import SECTION_QUOTE_UNITS

    section = "mastery/combat/death/fighting-on"
    units = context(section, after=50).after
    got = resolve_rule(section)
    assert got.text.split("\n")[:SECTION_QUOTE_UNITS] == [u.text for u in units[:SECTION_QUOTE_UNITS]]
    assert got.text.endswith("…") == (len(units) > SECTION_QUOTE_UNITS)
    out = trace_html(Step.of(StepKind.RULE, "Fighting on", cites=[section]))
    assert esc(units[0].text) in out
