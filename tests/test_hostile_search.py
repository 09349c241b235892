"""Any search string is a valid query: FTS5 syntax, quotes, operators, control characters, any Unicode.

``rulesdb.search`` answers every string with results (maybe none, with a hint) and never raises;
the CLI prints them with exit 0.
"""

from __future__ import annotations

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
