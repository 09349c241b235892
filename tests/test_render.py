"""Tests for ruleslawyer.render."""

from __future__ import annotations

import html
from dataclasses import dataclass
from html.parser import HTMLParser

from ruleslawyer.render import format_value, to_html, to_markdown, to_text
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind

FIGHT_ON = "mastery/combat/death/fighting-on#2"
TRIALS = "mastery/combat/trials#1"
PAYLOAD = "<img src=x onerror=alert(1)>"


@dataclass(frozen=True)
class Rule:
    breadcrumb: str
    text: str


RULES = {
    FIGHT_ON: Rule("Mastery › Combat › Death › Fighting On ¶2", "A character at 0 HP may keep fighting."),
}


def resolve(rule_id: str) -> Rule | None:
    return RULES.get(rule_id)


def sample() -> Step:
    return Step.of(
        StepKind.RESULT,
        "Exchange",
        "hit",
        detail="Attack beats defense.",
        cites=[FIGHT_ON],
        rulings=[RulingUse("mastery.failed-defense-damage", "full")],
        children=[
            Step.of("roll", "Attack roll", (4, 4, 1), cites=[Citation(TRIALS, "tier die explodes")]),
            Step.of("compare", "Attack vs defense", "9 > 6"),
        ],
    )


# --------------------------------------------------------------------------- text


def test_to_text_tree():
    assert to_text(sample()) == (
        "Exchange: hit [mastery/combat/death/fighting-on#2] {mastery.failed-defense-damage = full}\n"
        "  Attack beats defense.\n"
        "  Attack roll: 4, 4, 1 [mastery/combat/trials#1 — tier die explodes]\n"
        "  Attack vs defense: 9 > 6"
    )


def test_to_text_with_resolver_quotes_the_rule():
    assert to_text(sample(), resolve).splitlines()[2] == (
        '  § Mastery › Combat › Death › Fighting On ¶2: "A character at 0 HP may keep fighting."'
    )
    # TRIALS is unknown to the resolver: no quote line for it
    assert len(to_text(sample(), resolve).splitlines()) == 5


def test_to_text_marks_errors_and_omits_missing_values():
    step = Step.of("info", "Root", children=[Step.of("error", "Leftover dice", {"attack": (2,)})])
    assert to_text(step) == "Root\n  ERROR: Leftover dice: attack=2"


def test_format_value():
    assert format_value(None) == ""
    assert format_value(True) == "yes" and format_value(False) == "no"
    assert format_value((4, 4, 1)) == "4, 4, 1"
    assert format_value(StepKind.ROLL) == "roll"
    assert format_value(0) == "0"


# --------------------------------------------------------------------------- markdown


def test_to_markdown_nested_bullets_links_quotes_and_rulings():
    md = to_markdown(sample(), resolve)
    assert md.splitlines()[0] == "- **Exchange**: hit\\"
    assert "  *Attack beats defense\\.*" not in md  # '.' is left alone
    assert "  *Attack beats defense.*\\" in md
    assert "  Rule: Mastery › Combat › Death › Fighting On ¶2 (`mastery/combat/death/fighting-on#2`)" in md
    assert "  > A character at 0 HP may keep fighting." in md
    assert "  Ruling: `mastery.failed-defense-damage` = **full**" in md
    # children are nested one level deeper; the unresolved citation shows its id
    assert "  - **Attack roll**: 4, 4, 1\\" in md
    assert "    Rule: `mastery/combat/trials#1` — tier die explodes" in md
    assert "  - **Attack vs defense**: 9 &gt; 6" in md


def test_to_markdown_without_resolver_names_ids_and_has_no_dead_anchors():
    md = to_markdown(sample())
    assert "Rule: `mastery/combat/death/fighting-on#2`" in md
    assert "](#" not in md  # a handout has no anchors to point at
    assert ">" not in md.replace("&gt;", "")


def test_to_markdown_links_only_through_a_link_function():
    md = to_markdown(sample(), resolve, link=lambda rid: f"https://rules.example/{rid.replace('#', '/p')}")
    assert ("Rule: [Mastery › Combat › Death › Fighting On ¶2](https://rules.example/mastery/combat/death/fighting-on/p2)"
            in md)
    assert "javascript" not in to_markdown(sample(), resolve, link=lambda rid: "javascript:alert(1)")


def test_values_the_label_already_says_are_not_repeated():
    step = Step.of(StepKind.RESULT, "Attack (Ana, Broadsword): Critical", value="Critical", children=[
        Step.of(StepKind.RESULT, "Hit", value="hit"),
        Step.of(StepKind.ROLL, "Weapon damage 1d8", value=7),
        Step.of(StepKind.ROLL, "d100: 7", value=7),
        Step.of(StepKind.RESULT, "Fumble", value="Critical")])
    text = to_text(step).splitlines()
    assert text == ["Attack (Ana, Broadsword): Critical", "  Hit", "  Weapon damage 1d8: 7", "  d100: 7",
                    "  Fumble: Critical"]
    assert 'class="rl-value"' not in to_html(Step.of(StepKind.RESULT, "Hit", value="hit"))
    assert to_markdown(Step.of(StepKind.RESULT, "Hit", value="hit")) == "- **Hit**"


def test_to_markdown_escapes_html_and_markdown():
    step = Step.of("info", PAYLOAD, "*bold* [x](javascript:alert(1))", detail=PAYLOAD,
                   cites=[Citation(FIGHT_ON, PAYLOAD)],
                   rulings=[RulingUse("m.`x`", PAYLOAD)])
    bad = {FIGHT_ON: Rule(PAYLOAD, "# heading " + PAYLOAD)}
    md = to_markdown(step, bad.get)
    assert "<img" not in md and "<" not in md
    assert "\\*bold\\*" in md and "\\[x\\]" in md
    assert "> \\# heading" in md


# --------------------------------------------------------------------------- html


class TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parse(markup: str) -> TagCollector:
    p = TagCollector()
    p.feed(markup)
    p.close()
    return p


def test_to_html_structure():
    out = to_html(sample(), resolve)
    assert out.startswith('<ol class="rl-trace"><li class="rl-step rl-result" data-kind="result">')
    p = parse(out)
    assert [t for t, _ in p.tags].count("li") == 3
    cites = [a for t, a in p.tags if t == "a"]
    assert [a["data-rule-id"] for a in cites] == [FIGHT_ON, TRIALS]
    assert all(a["class"] == "rl-cite" for a in cites)
    assert cites[0]["href"] == "#mastery/combat/death/fighting-on%232"
    rulings = [a for t, a in p.tags if t == "span" and a.get("class") == "rl-ruling"]
    assert rulings == [{"class": "rl-ruling", "data-ruling-id": "mastery.failed-defense-damage",
                        "data-answer": "full"}]
    text = "".join(p.text)
    assert "Mastery › Combat › Death › Fighting On ¶2" in text
    assert "A character at 0 HP may keep fighting." in text
    assert "Ruling: mastery.failed-defense-damage = full" in text
    assert "9 > 6" in text
    assert '<span class="rl-value">9 &gt; 6</span>' in out


def test_to_html_escapes_payload_in_every_field():
    child = Step.of("roll", PAYLOAD, PAYLOAD, detail=PAYLOAD)
    step = Step.of(
        "result", PAYLOAD, (PAYLOAD, 3), detail=PAYLOAD,
        cites=[Citation(PAYLOAD, PAYLOAD), Citation(FIGHT_ON)],
        rulings=[RulingUse(PAYLOAD, PAYLOAD)],
        children=[child],
    )
    rules = {PAYLOAD: Rule(PAYLOAD, PAYLOAD), FIGHT_ON: Rule(PAYLOAD, PAYLOAD)}
    out = to_html(step, rules.get, link=lambda rid: "/rules?id=" + rid)
    assert "<img" not in out
    assert "onerror=alert(1)&gt;" in out
    escaped = html.escape(PAYLOAD)
    # label x2, value x2, detail x2, note, ruling id/answer (attrs + text), breadcrumbs, quotes, ids
    assert out.count(escaped) >= 14
    p = parse(out)
    assert {t for t, _ in p.tags} <= {"ol", "li", "span", "a", "blockquote"}
    for _, attrs in p.tags:
        assert not any(name.startswith("on") or name == "src" for name in attrs)
    a = [attrs for t, attrs in p.tags if t == "a"][0]
    assert a["data-rule-id"] == PAYLOAD
    assert a["href"] == "/rules?id=" + PAYLOAD  # escaped on the way out, intact after parsing


def test_to_html_quote_in_attribute_cannot_break_out():
    rid = 'x" onclick="alert(1)'
    out = to_html(Step.of("rule", "r", cites=[rid]))
    p = parse(out)
    a = [attrs for t, attrs in p.tags if t == "a"][0]
    assert "onclick" not in a and a["data-rule-id"] == rid


def test_to_html_drops_unsafe_links_and_tolerates_unknown_rules():
    out = to_html(sample(), resolve=lambda rid: None, link=lambda rid: "javascript:alert(1)")
    assert "javascript" not in out
    a = [attrs for t, attrs in parse(out).tags if t == "a"]
    assert all("href" not in attrs for attrs in a)
    assert f">{FIGHT_ON}</a>" in out  # no breadcrumb: the id is the link text
    no_href = to_html(sample(), link=lambda rid: None)
    assert all("href" not in attrs for t, attrs in parse(no_href).tags if t == "a")


def test_resolver_is_called_once_per_rule_id():
    calls: list[str] = []

    def counting(rule_id: str) -> Rule | None:
        calls.append(rule_id)
        return RULES.get(rule_id)

    step = Step.of("info", "x", cites=[FIGHT_ON], children=[Step.of("rule", "y", cites=[FIGHT_ON])])
    to_html(step, counting)
    assert calls == [FIGHT_ON]
