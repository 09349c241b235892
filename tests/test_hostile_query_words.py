"""Hostile input around the words a query is read by: "my character", "crit range", "97 or higher",
"what die", "instead of" / "rather than", the particle filler, a correction to another form of a word
the ruleset asked holds (``SearchData.holds``) and one word leading a section title
(``SearchData.led_sections``).

Every query answers (hits or none, never a traceback) at once, best first, each unit once and only
of the ruleset asked; the command line prints it as JSON with exit 0, and an unknown ruleset as a
JSON error naming ``--ruleset``.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer import rulesdb
from ruleslawyer.cli import main
from ruleslawyer.rulesdb import query as Q

RULESETS = (None, "mastery", "mythras", "darkmaster")

TRIGGERS = ["my", "my character", "our guys", "your pc", "character", "or higher", "97 or", "or", "97 or higher",
            "5 or less", "00 or so", "instead of", "rather than", "instead", "rather", "than", "range", "crit range",
            "success range", "die", "what die", "the die", "a die", "out off up down away over along",
            "my character instead of my character", "rather than instead of", "1 or 2 or 3 or higher"]
SHARDS = ['"', "*", "^", "NEAR", "AND", "OR", "NOT", "heading:", "body:", "{heading}:", "(", ")", "-", "+", ":", "'"]
DIGITS = ["٩٧ or higher", "۹۷ or lower", "९७ or higher", "９７ or higher", "⁹⁷ or more", "½ or less", "𝟗𝟕 or higher",
          "97\u0301 or higher", "①② or more", "9999999 or higher", "9" * 5000 + " or higher", "000000 or less",
          "-5 or lower", "5.5 or more"]
UNICODE = ["my \U0001f9d9 character", "my\u200dcharacter", "crit\u00adrange", "instead\u200bof", "rather\u00a0than",
           "\u0301" * 100 + "die", "die\udcff", "\ud800 or higher", "my \udcff character", "מה הקובייה", "أو أعلى 97",
           "\u202edie\u202c", "\U0010ffff range", "firearm\u0301s", "Ｆｉｒｅａｒｍｓ"]
LONG = ["instead of " * 3000, "rather than " * 3000, "my character " * 3000, "97 or higher " * 3000,
        "crit range " * 3000, "what die " * 3000, "out off up down " * 2000, "or " * 8000, "parry " * 2000 + "instead of",
        '"' + "instead of " * 1800 + '"', "(" * 5000 + "die" + ")" * 5000, "lunging " * 3000]
HOSTILE = (["", " ", "\t\n", "\u3000", "\x00"] + TRIGGERS + DIGITS + UNICODE + LONG
           + [("{s}{t}{s}", "{t} {s}")[k % 2].format(s=s, t=t) for k, (t, s) in enumerate(
               (t, s) for t in TRIGGERS[:12] for s in SHARDS[:10])]
           + [f'"{t}"' for t in TRIGGERS] + [t.replace(" ", "-") for t in TRIGGERS if " " in t])

HOUSE = """---
ruleset: northlands
ruleset_title: Northlands
chapter: arms
title: Arms Of The North
kind: house-rules
provenance: a test of the search
---

# Arms Of The North

## Firearms Of The North

Firearms change the economy of the north. A musket's crit range is 19–20; my character fires at 97 or higher.

Lunging attacks instead of parrying cost one more die. Use the die rather than the table.

### Range Of Muskets

A musket shoots 100 yards.

<!-- table: misfire | Misfire Table -->

| d20 | Result |
|-----|--------|
| 1–2 | Misfire: the powder fizzles |
| 3–19 | Fires normally |
| 20 | Double shot ٩٧ |

## Lurking Rules

Lurking in the snow lets you ambush. ⁹⁷ or more; ½ or less. شجاع נאמן 🗡️
"""


@pytest.fixture(scope="module")
def house(tmp_path_factory):
    """``(rules handle, database path, house-rules folder)`` of the shipped rules and a house ruleset
    ``northlands`` (a section "Firearms Of The North", a d20 table, Arabic digits, RTL text)."""
    root = tmp_path_factory.mktemp("house-words")
    folder = root / "house"
    folder.mkdir()
    (folder / "north.md").write_text(HOUSE, encoding="utf-8")
    rulesdb.build(root / "rules.db", house_rules=folder)
    return rulesdb.open_rules(root / "rules.db", house_rules=folder), root / "rules.db", folder


def _sound(results, ruleset, limit=10) -> None:
    """Best first (scores never rise), each unit once, only the ruleset asked, at most ``limit``;
    an empty answer says why."""
    scores = [h.score for h in results]
    ids = [h.id for h in results]
    assert all(a >= b for a, b in zip(scores, scores[1:])), scores
    assert len(set(ids)) == len(ids), ids
    assert len(ids) <= limit
    assert ruleset is None or all(h.ruleset == ruleset for h in results)
    if not results:
        assert isinstance(results.hint, str) and results.hint
    json.dumps(results.to_dict())


def test_trigger_words_alone_among_fts_syntax_and_in_any_script_answer_at_once(house):
    rules = house[0]
    slowest = (0.0, "")
    for k, query in enumerate(HOSTILE):
        for ruleset in (None, RULESETS[1 + k % 3], "northlands"):  # each ruleset a third of the queries
            start = time.process_time()
            results = rulesdb.search(query, ruleset=ruleset, rules=rules)
            slowest = max(slowest, (time.process_time() - start, query[:40]))
            _sound(results, ruleset)
    assert slowest[0] < 1.0, slowest


TRIGGER_WORDS = sorted(Q._OWN | Q._SELF | Q._SPAN | Q._SPAN_OF | Q._BEYOND | Q._DIE_NOUN
                       | {"or", "instead", "of", "rather", "than", "die", "97", "٩٧", "00", "parry", "lunging"})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(TRIGGER_WORDS), st.sampled_from([" ", "-", "'", "*", '"', ",", "(", ")",
                                                                           " OR ", "\u00ad", "\u0301 "])),
                max_size=12),
       st.sampled_from(RULESETS))
def test_any_string_of_trigger_words_answers_best_first(words, ruleset):
    _sound(rulesdb.search("".join(w + s for w, s in words), ruleset=ruleset, limit=5), ruleset, 5)


CONTRASTED = [("dodge", "parry"), ("parry", "dodge"), ("move", "attack"), ("cast", "attack"), ("attack", "defend"),
              ("evade", "parry"), ("tank hits with armor", "parrying")]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_instead_of_and_rather_than_are_read_alike_and_never_searched(ruleset):
    # "X rather than Y" ranked first the units that merely say "rather than" (Mastery's reaction
    # spells "triggered by circumstances rather than declared"; Mythras's gunfights "rather than
    # gloriously shot to pieces"): the pair's own words were searched, "rather than" even as a phrase
    for asked, not_asked in CONTRASTED:
        one = rulesdb.search(f"{asked} instead of {not_asked}", ruleset=ruleset)
        other = rulesdb.search(f"{asked} rather than {not_asked}", ruleset=ruleset)
        assert [(h.id, h.score) for h in one] == [(h.id, h.score) for h in other], (asked, not_asked)
        for results in (one, other):
            assert not {'"instead"', '"rather"', '"than"'} & set(results.fts_query.split(" OR ")), results.fts_query
            for mark in ("instead", "rather", "than"):
                assert not any(f"<mark>{mark}</mark>" in h.snippet.lower() for h in results), (asked, mark)


def test_dodging_rather_than_parrying_is_the_defense_rule_not_a_spell_said_rather_than_declared():
    # hand-checked: Mastery's Defense row answers; casting#4 holds only "rather than" and "defense"
    assert [h.id for h in rulesdb.search("dodge rather than parry", ruleset="mastery", limit=1)] == [
        "mastery/combat/action-points/action-costs#4"]
    assert "mythras/combat/firearms-change-the-economy#1" not in [
        h.id for h in rulesdb.search("parry rather than dodge", ruleset="mythras", limit=3)]


def _two_word_terms() -> list[tuple[str, str]]:
    from ruleslawyer.shipped import DATA_DIR

    terms = set()
    for path in sorted((DATA_DIR / "synonyms").glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")).get("synonyms", []):
            terms |= {tuple(t.split()) for t in entry.get("terms", [])
                      if len(t.split()) == 2 and all(w.isalpha() for w in t.split())}
    return sorted(terms)


def test_no_gm_phrase_reaches_across_instead_of():
    # "move instead of attack" was read as the GM phrase "move attack" (Darkmaster's combined actions,
    # a -20 penalty), "ability instead of modifier" as "ability modifier": the filler-free words on
    # both sides of the turn made one phrase. Every two-word GM phrase of the synonym data, split by it:
    from ruleslawyer.rulesdb.fulltext import _data
    from ruleslawyer.rulesdb.query import compile_query_text

    conn, data = _data(rulesdb.open_rules())
    terms = _two_word_terms()
    assert len(terms) > 500
    for a, b in terms[::8]:  # every eighth: over half of them used to cross
        for turn in ("instead of", "rather than"):
            notes = compile_query_text(f"{a} {turn} {b}", conn, data, None).notes
            crossing = [n for n in notes if n.startswith("synonym: ") and turn in n.split(" → ")[0]]
            assert not crossing, (a, turn, b, crossing)


@pytest.mark.parametrize("pair", [*[(w, s) for w in sorted(Q._SPAN_OF) for s in sorted(Q._SPAN)],
                                  *[(w, s) for w in sorted(Q._OWN) for s in sorted(Q._SELF)]], ids="-".join)
def test_a_hyphenated_trigger_reads_as_the_spaced_words(pair):
    # "what is the crit-range" found nothing in Mastery or Darkmaster ("crit range" was a phrase to
    # match whole; "crit range" spaced is Mastery's exploding attack); "my-character" likewise
    spaced, joined = " ".join(pair), "-".join(pair)
    for ruleset in (None, "darkmaster"):
        one = rulesdb.search(f"what is the {spaced} when I attack", ruleset=ruleset)
        other = rulesdb.search(f"what is the {joined} when I attack", ruleset=ruleset)
        assert [(h.id, h.score) for h in one] == [(h.id, h.score) for h in other], (pair, ruleset)


def test_crit_range_hyphenated_finds_what_crit_range_finds_and_long_range_stays_a_phrase():
    assert [h.id for h in rulesdb.search("what is the crit-range", ruleset="mastery", limit=1)] == [
        "mastery/combat/actions-and-reactions/attack#11"]
    assert Q._unspanned(["long", "range"]) == ["long", "range"]
    assert Q._unspanned(["crit", "range"]) == ["crit"] and Q._unspanned(["my", "character"]) == ["my"]


@pytest.mark.parametrize("typed", ["97", "٩٧", "۹۷", "९७", "９７", "⁹⁷", "𝟗𝟕"])
@pytest.mark.parametrize("beyond", ["higher", "more", "or so"])
def test_a_number_or_higher_in_any_digits_asks_the_faces_not_the_word(typed, beyond):
    # the comparison word is dropped after a number of any script; the Trauma Table's 86–99 row holds it
    results = rulesdb.search(f"I rolled {typed} or {beyond}", ruleset="mastery")
    words = beyond.split()[-1]
    assert f'"{words}"' not in results.fts_query.split(" OR ")
    assert "mastery/combat/wounds-injuries-and-trauma/trauma-table#58" in [h.id for h in results]


def test_a_fraction_or_less_drops_the_comparison_word():
    # "½" is "1⁄2" in NFKC: the 2 is a number, so "less" goes
    assert '"less"' not in rulesdb.search("½ or less", ruleset="mythras").fts_query.split(" OR ")


def test_spelling_prefers_the_form_the_house_ruleset_holds(house):
    rules = house[0]
    found = rulesdb.search("misfiring", ruleset="northlands", rules=rules)
    assert "spelling: misfiring → misfire" in found.expansions
    assert found[0].id == "northlands/arms/firearms-of-the-north/range-of-muskets#2"
    # a ruleset holding no form of it: an answer, never an error
    _sound(rulesdb.search("misfiring", ruleset="mastery", rules=rules), "mastery")
    from ruleslawyer.rulesdb.fulltext import _data

    conn, data = _data(rules)
    assert data.holds(conn, "misfire", "northlands") and not data.holds(conn, "misfire", "mastery")
    for word in ("", '"', "NEAR", "*", 'a"b', "(", "heading:x", "\u0301", "x" * 5000):
        for ruleset in ("northlands", "nope", ""):
            assert data.holds(conn, word, ruleset) is False, (word, ruleset)


def test_one_word_leading_a_house_section_title_in_any_dress(house):
    rules = house[0]
    first = [h.id for h in rulesdb.search("firearms", ruleset="northlands", rules=rules, limit=2)]
    assert first == ["northlands/arms/firearms-of-the-north#1", "northlands/arms/firearms-of-the-north"]
    for dressed in ("FIREARMS", "Ｆｉｒｅａｒｍｓ", "firearm\u0301s", "“firearms”", "(firearms)", "firearms?", "firearms\udcff"):
        assert [h.id for h in rulesdb.search(dressed, ruleset="northlands", rules=rules, limit=2)] == first, dressed
    from ruleslawyer.rulesdb.fulltext import _data

    conn, data = _data(rules)
    for word in ("", " ", "%", "_", "firearms%", "\U0010ffff", "\udcff", "fire"):
        assert data.led_sections(conn, word) == (), word
    assert len(data.led_sections(conn, "firearms")) == 2  # Mythras's chapter and the house rules


@pytest.mark.parametrize("query", ["", " ", "my character", "97 or higher", "٩٧ or higher", "instead of",
                                   "rather than", "crit-range", "what die", "die\udcff", "\udcff", "firearms",
                                   "misfiring", "heading: die", '"my character" OR NEAR(die)', "instead of " * 3000])
def test_the_command_line_prints_json_for_every_trigger_query(house, query, capsys):
    _rules, db, folder = house
    for ruleset in ([], ["--ruleset", "northlands"], ["--ruleset", "MASTERY"], ["--ruleset", "all"]):
        assert main(["search", "--db", str(db), "--house-rules", str(folder), *ruleset, "--json", "--", query]) == 0
        out = json.loads(capsys.readouterr().out)
        scores = [h["score"] for h in out["hits"]]
        assert scores == sorted(scores, reverse=True)
        assert len({h["id"] for h in out["hits"]}) == len(out["hits"])


@pytest.mark.parametrize("ruleset", ["nope", "northlands\udcff", "mastery OR mythras", "*"])
def test_an_unknown_ruleset_is_a_json_error_naming_the_option(house, ruleset, capsys):
    _rules, db, folder = house
    assert main(["search", "--db", str(db), "--house-rules", str(folder), "--ruleset", ruleset, "--json", "--",
                 "lunging my character 97 or higher"]) == 1
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error["field"] == "--ruleset" and "northlands" in error["message"] and not error["internal"]
    assert "Traceback" not in captured.err
