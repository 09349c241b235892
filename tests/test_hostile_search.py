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
