"""Full-text search over the rules: any string is a valid query.

User text never reaches FTS5 ``MATCH`` raw. :func:`compile_query` tokenises it, quotes every term
(hyphenated and apostrophe words become phrases, a trailing ``*`` stays a prefix, straight and
curly quotes make phrases) and drops common words when there is anything else to search for.
Ranking is bm25 with the section heading trail weighted above the body; all terms must match first,
then hits matching any term fill the remaining places.
"""

from __future__ import annotations

import difflib
import html
import re
import sqlite3
from dataclasses import asdict, dataclass, field

from .db import connect

__all__ = ["Hit", "SearchResults", "compile_query", "search", "suggest", "complete", "HEADING_WEIGHT"]

#: bm25 weight of the heading column relative to the body (1.0).
HEADING_WEIGHT = 4.0
MAX_TERMS = 32
_MARK_OPEN, _MARK_CLOSE = "\ue000", "\ue001"

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "«": '"', "»": '"',
                         "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'"})
_PHRASE = re.compile(r'"([^"]*)"')
_TOKEN = re.compile(r"\w+(?:['\-–]\w+)*\*?", re.UNICODE)

STOPWORDS = frozenset("""
a an and are as at be by can do does for from had has have how i if in into is it its me my
of on or so that the their them then there these they this to was we what when where which who
whom why will with you your yours
""".split())


@dataclass(frozen=True)
class Hit:
    """One ranked search hit.

    Attributes:
        id: citation id of the unit (``mastery/combat/death/fighting-on#2``).
        ruleset: ruleset id.
        breadcrumb: ``Mastery › Combat › Death › Fighting On ¶2``.
        snippet: HTML: the escaped text around the match with ``<mark>`` around matched terms.
        text: the unit's full text (plain, unescaped).
        score: relevance, higher is better (negated bm25).
        kind: ``heading``, ``paragraph``, ``item`` or ``row``.
        section: the section id the unit belongs to.
    """

    id: str
    ruleset: str
    breadcrumb: str
    snippet: str
    text: str
    score: float
    kind: str
    section: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class SearchResults:
    """Hits for one query, best first, plus a hint when there is nothing (or little) to show.

    Iterable and indexable like a list of :class:`Hit`; ``to_dataframe()`` gives a pandas DataFrame.
    """

    query: str
    hits: tuple[Hit, ...] = ()
    hint: str = ""
    fts_query: str = ""
    suggestions: tuple[str, ...] = field(default=())

    def __iter__(self):
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, index):
        return self.hits[index]

    def __bool__(self) -> bool:
        return bool(self.hits)

    def to_dict(self) -> dict:
        return {"query": self.query, "hint": self.hint, "fts_query": self.fts_query,
                "suggestions": list(self.suggestions), "hits": [h.to_dict() for h in self.hits]}

    def to_dataframe(self):
        """The hits as a pandas DataFrame (columns: id, ruleset, breadcrumb, text, score, ...)."""
        import pandas as pd

        columns = ["id", "ruleset", "breadcrumb", "text", "score", "kind", "section", "snippet"]
        return pd.DataFrame([h.to_dict() for h in self.hits], columns=columns)


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _terms(query: str) -> list[str]:
    """FTS5-safe terms: quoted phrases first, then words (prefix ``*`` kept), stopwords dropped."""
    text = query.translate(_QUOTES)
    phrases: list[str] = []

    def take(match: re.Match) -> str:
        words = _TOKEN.findall(match.group(1))
        if words:
            phrases.append(_quote(" ".join(w.rstrip("*") for w in words)))
        return " "

    rest = _PHRASE.sub(take, text)
    words: list[str] = []
    for tok in _TOKEN.findall(rest):
        prefix = tok.endswith("*")
        core = tok.rstrip("*")
        if not core:
            continue
        words.append(_quote(core) + ("*" if prefix else ""))
    content = [w for w in words if w.strip('"*').lower() not in STOPWORDS]
    if content or phrases:
        words = content
    return (phrases + words)[:MAX_TERMS]


def compile_query(query: str) -> tuple[str, str]:
    """Return ``(all_terms, any_term)`` FTS5 expressions for a user query (``""`` if nothing to search)."""
    terms = _terms(query or "")
    if not terms:
        return "", ""
    return " AND ".join(terms), " OR ".join(terms)


_SQL = f"""
SELECT u.id, u.ruleset, u.breadcrumb, u.text, u.kind, u.section,
       snippet(units_fts, 1, '{_MARK_OPEN}', '{_MARK_CLOSE}', '…', 32) AS snip,
       bm25(units_fts, {HEADING_WEIGHT}, 1.0) AS rank
FROM units_fts JOIN units u ON u.rowid = units_fts.rowid
WHERE units_fts MATCH ? {{filter}}
ORDER BY rank, u.ord
LIMIT ?
"""


def _mark(snip: str) -> str:
    return html.escape(snip).replace(_MARK_OPEN, "<mark>").replace(_MARK_CLOSE, "</mark>")


def _known_rulesets(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT DISTINCT ruleset FROM chapters ORDER BY ruleset")]


def search(query: str, ruleset: str | None = None, limit: int = 10, *,
           db: str | None = None) -> SearchResults:
    """Search every rule, list item and table row.

    Args:
        query: any text. Words are stemmed (``parries`` finds Parry); ``"a phrase"`` or
            “curly quotes” match a phrase; ``word*`` matches a prefix. Punctuation, FTS5 keywords,
            unbalanced quotes and HTML are all searched as plain words.
        ruleset: restrict to one ruleset id (``mastery``, ``mythras``, ``darkmaster`` or a house one).
        limit: maximum hits, 1–1000.
        db: database path (default: the standard location, built on first use).

    Returns:
        :class:`SearchResults`, best hit first; empty with a ``hint`` for an empty query or no match.

    Raises:
        ValueError: unknown ruleset or a limit outside 1–1000.
    """
    if not isinstance(limit, int) or not 1 <= limit <= 1000:
        raise ValueError(f"limit must be an integer from 1 to 1000, got {limit!r}")
    conn = connect(db)
    if ruleset is not None and ruleset not in _known_rulesets(conn):
        raise ValueError(f"unknown ruleset {ruleset!r}; choose one of: {', '.join(_known_rulesets(conn))}")
    query = query if isinstance(query, str) else str(query)
    all_terms, any_term = compile_query(query)
    if not all_terms:
        hint = ("Type a word or a phrase to search the rules, e.g. parry, \"fighting on\" or trauma."
                if not query.strip() else
                "Nothing searchable in that query; type a word or a phrase, e.g. parry or \"fighting on\".")
        return SearchResults(query=query, hint=hint)
    where, params = ("AND u.ruleset = ?", [ruleset]) if ruleset else ("", [])
    sql = _SQL.format(filter=where)
    seen: dict[str, Hit] = {}
    for expr in (all_terms, any_term) if any_term != all_terms else (all_terms,):
        if len(seen) >= limit:
            break
        for r in conn.execute(sql, [expr, *params, limit]):
            if r["id"] in seen or len(seen) >= limit:
                continue
            seen[r["id"]] = Hit(r["id"], r["ruleset"], r["breadcrumb"], _mark(r["snip"]), r["text"],
                                round(-r["rank"], 6), r["kind"], r["section"])
    hits = tuple(seen.values())
    if hits:
        return SearchResults(query=query, hits=hits, fts_query=all_terms)
    suggestions = tuple(suggest(query, db=db))
    hint = f"No rules match {query.strip()[:80]!r}."
    if suggestions:
        hint += " Did you mean: " + ", ".join(suggestions) + "?"
    return SearchResults(query=query, hint=hint, fts_query=all_terms, suggestions=suggestions)


def _vocabulary(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT term FROM vocab WHERE term GLOB '[a-z]*' ORDER BY term")]


def suggest(query: str, *, db: str | None = None, n: int = 3) -> list[str]:
    """Spelling suggestions for the words of ``query`` from the unstemmed vocabulary of the rules."""
    conn = connect(db)
    vocab = _vocabulary(conn)
    words = [w.lower() for w in _TOKEN.findall((query or "").translate(_QUOTES)) if len(w) > 2][:8]
    out: list[str] = []
    vocab_set = set(vocab)
    for w in words:
        w = w.rstrip("*")
        if w in vocab_set or w in STOPWORDS:
            continue
        for m in difflib.get_close_matches(w, vocab, n=n, cutoff=0.75):
            if m not in out:
                out.append(m)
    return out[:n]


def complete(prefix: str, *, db: str | None = None, n: int = 10) -> list[str]:
    """Type-ahead: vocabulary words starting with the last word of ``prefix``, most frequent first."""
    words = _TOKEN.findall((prefix or "").translate(_QUOTES).lower())
    if not words:
        return []
    stem = words[-1].rstrip("*")
    if not stem:
        return []
    conn = connect(db)
    rows = conn.execute(
        "SELECT term FROM vocab WHERE term >= ? AND term < ? ORDER BY cnt DESC, term LIMIT ?",
        (stem, stem + "\uffff", n))
    return [r[0] for r in rows]
