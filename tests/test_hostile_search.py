"""Any search string is a valid query: FTS5 syntax, quotes, operators, control characters, any Unicode.

``rulesdb.search`` answers every string with results (maybe none, with a hint) and never raises;
the CLI prints them with exit 0.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer import rulesdb
from ruleslawyer.cli import main

FTS_SHARDS = '"*^:()-+{}[]\\\'_%.,;~ANDORNTEAR near and or not'

QUERIES = ['"', '""', '"unterminated', "*", "**", "a*b*", "^", ":", "a:b", "ruleset:mastery", "()", "(", ")",
           "AND", "OR", "NOT", "AND OR NOT", "NEAR(", "NEAR(a b, 2)", "-", "--", "+", "{}", "{a b}:c", "\\",
           "'", "%", "_", "\x00", "\x1b[31m", "\u202e", "🗡️ parry", "a" * 5000, "death " * 300, " ", "\n\t"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=40) | st.text(alphabet=FTS_SHARDS, max_size=30))
def test_any_string_is_a_valid_query(query):
    results = rulesdb.search(query)
    assert len(results) <= 10
    if not results:
        assert isinstance(results.hint, str)


def test_hostile_queries_through_the_cli_exit_0(capsys):
    for q in QUERIES:
        assert main(["search", "--", q]) == 0, q
        assert main(["search", "--json", "--", q]) == 0, q
        err = capsys.readouterr().err
        assert "Traceback" not in err and "error" not in err, (q, err)


def _fold_reference(word: str) -> str:
    """fold() written plainly (each mark judged by walking back to its letter): quadratic, for checking."""
    import unicodedata

    if word.isascii():
        return word.lower()
    d = unicodedata.normalize("NFKD", word.lower())

    def latin(k):
        while k and unicodedata.combining(d[k - 1]):
            k -= 1
        return k > 0 and d[k - 1].isascii()

    return unicodedata.normalize("NFC", "".join(c for k, c in enumerate(d)
                                               if not (unicodedata.combining(c) and k and latin(k))))


@pytest.mark.parametrize("word", ["Séance", "naïve", "e\u0301\u0301x", "\u0301abc", "हिन्दी", "Ἀχιλλεύς",
                                  "a\u0301\u0327b\u0308", "ü\u0301", "x" + "\u0301" * 50 + "हि\u0301"])
def test_fold_strips_marks_on_latin_letters_only(word):
    from ruleslawyer.rulesdb.words import fold

    assert fold(word) == _fold_reference(word)


def test_a_word_with_twenty_thousand_combining_marks_is_searched_at_once():
    # each mark used to be judged by walking back over every mark before it (quadratic: 15 s)
    import time

    from ruleslawyer.rulesdb.words import fold

    word = "a" + "\u0301" * 20_000
    t0 = time.process_time()
    assert fold(word) == "a"
    rulesdb.search(word, ruleset="mastery")
    rulesdb.search("parry " + "\u0301" * 19_990, ruleset="mythras")
    assert time.process_time() - t0 < 1.0


def test_a_very_long_word_in_house_rules_and_the_query_is_searched_at_once(tmp_path):
    # spelling correction compares words letter by letter: a 20,000-letter word is never compared
    import time

    house = tmp_path / "house"
    house.mkdir()
    (house / "long.md").write_text(
        "---\nruleset: house\nruleset_title: House\nchapter: extras\ntitle: House Rules\nkind: house-rules\n"
        f"provenance: a test\n---\n# House Rules\n\n## Long\n\nThe word {'x' * 20_000} is long.\n", encoding="utf-8")
    rulesdb.build(tmp_path / "rules.db", house_rules=house)
    rules = rulesdb.open_rules(tmp_path / "rules.db")
    start = time.perf_counter()
    rulesdb.search("x" * 19_999, rules=rules)
    rulesdb.suggest("x" * 19_999, rules=rules)
    assert time.perf_counter() - start < 2.0


def test_each_distinct_unknown_word_is_tried_for_a_correction_once_and_at_most_four(monkeypatch):
    from ruleslawyer.rulesdb import query

    tried: list[str] = []
    real = query._correct
    monkeypatch.setattr(query, "_correct", lambda word, c: tried.append(word) or real(word, c))
    rules = rulesdb.open_rules()
    rulesdb.search(" ".join(["wordzz"] * 64 + ["qqqqa", "qqqqb", "qqqqc", "qqqqd", "qqqqe"]), rules=rules)
    assert tried.count("wordzz") <= 2 and len(tried) <= 2 * query.MAX_CORRECTIONS  # _misspelt and _singles


@pytest.mark.parametrize("word", ["opportunity", "avoid", "assault"])
def test_did_you_mean_never_offers_the_word_typed(word):
    assert word not in rulesdb.suggest(word, rules=rulesdb.open_rules())


def test_a_typo_is_corrected_to_a_word_that_leads_somewhere():
    # "difficult" is a word of the synonym data only, with no synonym of its own: "difficulty" has hits
    hits = rulesdb.search("difficuet", ruleset="mythras", rules=rulesdb.open_rules())
    assert "spelling: difficuet → difficulty" in hits.expansions and len(hits) > 0


@pytest.mark.parametrize(("query", "ruleset", "note"), [
    ("can't be done", "mythras", "synonym: can't be done → hopeless"),  # an apostrophe negation in the data
    ("how many AP's do i get", "mythras", "synonym: AP's → action points"),  # 's is the word itself
])
def test_apostrophes_in_the_synonym_data_and_the_question(query, ruleset, note):
    hits = rulesdb.search(query, ruleset=ruleset, rules=rulesdb.open_rules())
    assert any(n.startswith(note) for n in hits.expansions) and len(hits) > 0
