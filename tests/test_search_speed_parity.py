"""Speed work on the search must not change its answers, and a cold search stays light.

- A plain ``ruleslawyer search`` on a built database loads none of the modules it does not need
  (``json``, ``html``, ``typing``, ``dataclasses`` and ``inspect``, the ruleset registry, the records module with its dataclasses, the
  Markdown parser): each is milliseconds of a start that should cost about twice a bare Python.
Every database here is in tmp_path.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import example, given, settings, strategies as st

from ruleslawyer import rulesdb

#: Modules a cold plain-text search must not import (each one a few milliseconds of start-up).
COLD_UNNEEDED = ("json", "html", "typing", "dataclasses", "inspect", "ruleslawyer.registry", "ruleslawyer.rulesdb.records",
                 "ruleslawyer.rulesdb.builder", "markdown_it", "yaml", "pandas")


@pytest.fixture(scope="module")
def built_db(tmp_path_factory, shipped_db):
    return shipped_db(tmp_path_factory.mktemp("speed") / "rules.db")


def test_cold_search_imports_only_what_it_needs(built_db):
    code = ("import sys; from ruleslawyer.cli import main; main(['search', 'parry']); "
            f"print('LOADED', [m for m in {COLD_UNNEEDED!r} if m in sys.modules], file=sys.stderr)")
    env = {**os.environ, "RULESLAWYER_DB": str(built_db)}
    env.pop("RULESLAWYER_HOUSE_RULES", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert "parry" in out.stdout.lower()
    assert "LOADED []" in out.stderr, out.stderr


@pytest.mark.parametrize("text", ["plain", "a < b > c & d", "\"quoted\" and 'single'", "&amp;lt; stays literal",
                                  "&eacute; &#39; &#x27; &quot;", "<mark>x</mark> & <b>"])
def test_terminal_snippet_unescapes_as_html_does(text):
    """The CLI's own unescape (no ``html`` import) turns the search's escaped text back exactly as
    ``html.unescape`` would."""
    import html

    from ruleslawyer.commands.db import _plain_snippet
    from ruleslawyer.rulesdb.fulltext import _escape

    escaped = _escape(text)
    assert _plain_snippet(escaped) == html.unescape(escaped) == text


def _reference_found(low: str, words: frozenset[str], prefixes: tuple[str, ...]) -> list[tuple[int, int]]:
    """The marks' spans as first written (one ``str.find`` loop over every word and prefix): what the
    faster :func:`fulltext._found` must return, span for span."""
    spans = []
    n = len(low)
    for w in (*words, *prefixes):
        i = low.find(w)
        while i >= 0:
            j = i + len(w)
            if (i == 0 or not low[i - 1].isalnum()) and (w in words and (j == n or not low[j].isalnum())
                                                           or w not in words):
                while j < n and low[j].isalnum():
                    j += 1
                spans.append((i, j))
            i = low.find(w, j)
    spans.sort()
    return [s for k, s in enumerate(spans) if k == 0 or s[0] >= spans[k - 1][1]]


_WORDS = st.text(alphabet="abcé-' 1", min_size=1, max_size=6).filter(lambda w: w.strip() == w and w)


@settings(max_examples=400, deadline=None)
@example(text="11 1x", words=frozenset({"1"}), prefixes=["1"])  # a prefix that is also a word: whole words only
@given(text=st.text(alphabet="abcé-' 1.\nXB", max_size=60), words=st.frozensets(_WORDS, max_size=5),
       prefixes=st.lists(_WORDS, max_size=2))
def test_found_matches_the_plain_find_loop(text, words, prefixes):
    """Whole words (also hyphenated or with an apostrophe, which no word set can vouch for), prefixes,
    overlaps and letters beyond ASCII: the spans are the plain loop's, with and without the text's
    word set."""
    from ruleslawyer.rulesdb.fulltext import _found, _tokens

    low = text.lower()
    marks = (words, tuple(prefixes), frozenset(w for w in words if not w.isalnum()))
    expected = _reference_found(low, words, tuple(prefixes))
    assert _found(low, marks) == expected
    assert _found(low, marks, _tokens(text, "other heading")) == expected


def test_hits_and_results_are_read_only_records_as_before():
    from ruleslawyer.rulesdb.fulltext import Hit, SearchResults

    h = Hit("m/c#1", "mastery", "Mastery › C ¶1", "<mark>x</mark>", "x", 1.5, "paragraph", "m/c")
    assert (h.matched_via, h.matched_heading, h.listed_under) == ((), "", "")
    assert list(h.to_dict()) == ["id", "ruleset", "breadcrumb", "snippet", "text", "score", "kind", "section",
                                 "matched_via", "matched_heading", "listed_under"]
    assert h == Hit(id="m/c#1", ruleset="mastery", breadcrumb="Mastery › C ¶1", snippet="<mark>x</mark>", text="x",
                    score=1.5, kind="paragraph", section="m/c") and hash(h) == hash(Hit(*h._values()))
    assert h != Hit(*h._values()[:5], 2.0, "paragraph", "m/c")
    with pytest.raises(AttributeError):
        h.score = 3.0
    with pytest.raises(TypeError):
        Hit("only", "three", "fields")
    with pytest.raises(TypeError):
        Hit(*h._values(), colour="red")
    r = SearchResults("parry", (h,))
    assert (r.hint, r.fts_query, r.suggestions, r.expansions) == ("", "", (), ())
    assert len(r) == 1 and r[0] is h and list(r) == [h] and bool(r) and not SearchResults("x")
    assert r.to_dict()["hits"] == [h.to_dict()] and "Hit(id='m/c#1'" in repr(h)


def test_hits_and_results_pickle_copy_and_refuse_changes(built_db):
    import copy
    import pickle

    results = rulesdb.search("parry", "mythras", limit=3, rules=rulesdb.open_rules(built_db))
    hit = results[0]
    for clone in (pickle.loads(pickle.dumps(results)), pickle.loads(pickle.dumps(results, 0)),
                  copy.copy(results), copy.deepcopy(results)):
        assert clone == results and clone.to_dict() == results.to_dict() and clone[0] == hit
    assert copy.deepcopy(hit) == hit and pickle.loads(pickle.dumps(hit)) == hit
    for change in (lambda: delattr(hit, "score"), lambda: setattr(hit, "score", 0.0),
                   lambda: delattr(results, "hits")):
        with pytest.raises(AttributeError):
            change()
    assert hit.score == results[0].score and len(results) == 3
    match hit:
        case rulesdb.Hit(hit_id, "mythras"):
            assert hit_id == hit.id
        case _:
            pytest.fail("a hit matches by position: id, ruleset, ...")
