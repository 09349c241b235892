"""Full-text search over the rules: any string is a valid query.

User text is never handed to SQL. A query is cut into *groups*: a quoted phrase (straight or curly
quotes), a word (hyphenated and apostrophe words become phrases, a trailing ``*`` stays a prefix),
or a GM phrase with a synonym (``attack of opportunity`` → ``reprisal attack``; data in
``rulesdb/synonyms/*.json``, matched by Porter stem). A word the rules never use is corrected to
the closest word they do use ("flankng" → "flanking"). Question words are dropped when anything
else is left.

Ranking reads the inverted index the build precomputes from the same tokenizer as the FTS5 index
(``postings``: per Porter stem, the units and how often the word is in their heading trail and
body), and scores each alternative with FTS5's own bm25 formula and column weights (the heading
trail counts ``HEADING_WEIGHT`` times the body; the same weights are stored as the FTS5 index's
``rank``). A hit's score is the idf-weighted share of the query's groups it matches — so a unit
matching every group comes first, as with AND, then units matching fewer, as with OR — with a
bonus where the unit defines the word (``Evade: …``), synonym-only matches counting less than the
GM's own words, and a quarter of bm25 (supplements' a little less) breaking ties. Postings are read
by key on first use and kept per connection; a query runs no full-text scan. Snippets are cut from
the escaped text and only then get ``<mark>``. ``SearchResults.fts_query`` holds the equivalent
FTS5 ``MATCH`` expression (every term quoted), usable in Datasette.
"""

from __future__ import annotations

from ruleslawyer.errors import RulesInputError

import heapq
import math
import re
import sqlite3
import threading
from dataclasses import asdict, dataclass, field
from functools import lru_cache

from .db import connect
from .words import HEADING_WEIGHT, WORD_RE, fold, porter_stems
from .synonyms import COMMON, phrase_table

__all__ = ["Hit", "SearchResults", "compile_query", "search", "suggest", "complete", "HEADING_WEIGHT",
           "STOPWORDS"]

MAX_TERMS = 32
MAX_WORDS = 64
MAX_CORRECTIONS = 4
SNIPPET_TOKENS = 32
#: Chapters (and house rules) rank ahead of supplements written for the kit: bm25 of a supplement
#: unit is multiplied by this before ordering.
SUPPLEMENT_FACTOR = 0.8

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "«": '"', "»": '"',
                         "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'"})
_PHRASE = re.compile(r'"([^"]*)"')
_TOKEN = re.compile(r"[^\W_]+(?:['\-–][^\W_]+)*\*?", re.UNICODE)

STOPWORDS = frozenset("""
a an and are as at be by can could do does did for from had has have how i if in into is it its me my
of on or so that the their them then there these they this to was we what when where which who
whom why will with you your yours would should shall may might must am been being get gets got
happens happen happened each many much any our us he she his her him someone something anything
does doesnt don't dont cant can't i'm im ive i've there's theres tell explain rule rules one ones
also just really whats hows whos wheres
""".split())

#: Ranking weights: a hit's score is the idf-weighted share of query groups it matches (a group
#: matched by the term a unit defines — "Evade: …" for "evade" — counts LABEL_BONUS more), plus
#: BM25_SHARE times its bm25 squashed into [0, 1) (b / (1 + b)).
LABEL_BONUS = 0.5
BM25_SHARE = 0.25
#: A group matched only through a synonym or a spelling correction counts this much: a unit that
#: uses the GM's own word ranks above one that only uses the book's word for it.
SYNONYM_FACTOR = 0.6
#: bm25 of a unit that is only a heading is multiplied by this: its section's text answers better.
HEADING_FACTOR = 1.0
#: The kit's own supplement prose (its notes on silent points, its explanations; not its table
#: rows) is not where a rule defines a word, so it gets no LABEL_BONUS, and its whole score is
#: multiplied by this: for the same match strength the chapters' rules come first.
SUPPLEMENT_PROSE_FACTOR = 0.95

_MARK = ("<mark>", "</mark>")
#: What _escape(text, quote=True) does, without importing html (kept off the CLI's cold path).
_ESCAPE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def _escape(text: str) -> str:
    return text.translate(_ESCAPE)


@dataclass(frozen=True)
class Hit:
    """One ranked search hit.

    Attributes:
        id: citation id of the unit (``mastery/combat/death/fighting-on#2``).
        ruleset: ruleset id.
        breadcrumb: ``Mastery › Combat › Death › Fighting On ¶2``.
        snippet: HTML: the escaped text around the match with ``<mark>`` around matched terms.
        text: the unit's full text (plain, unescaped).
        score: relevance, higher is better: the idf-weighted share of the query's words (or
            synonym groups) the unit matches, a bonus where the unit defines the word
            (``Evade: …``), plus a quarter of its bm25 squashed into [0, 1).
        kind: ``heading``, ``paragraph``, ``item`` or ``row``.
        section: the section id the unit belongs to.
        matched_via: how a GM's word reached the book's: ``synonym: HP → health``,
            ``spelling: flankng → flanking`` (empty when the words matched as typed).
    """

    id: str
    ruleset: str
    breadcrumb: str
    snippet: str
    text: str
    score: float
    kind: str
    section: str
    matched_via: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        d = asdict(self)
        d["matched_via"] = list(self.matched_via)
        return d


@dataclass(frozen=True)
class SearchResults:
    """Hits for one query, best first, plus a hint when there is nothing (or little) to show.

    Iterable and indexable like a list of :class:`Hit`; ``to_dataframe()`` gives a pandas DataFrame.

    Attributes:
        query: the query as given.
        hits: the hits, best first.
        hint: a sentence for the user when there are no hits (or the query was empty).
        fts_query: the FTS5 expression that was run.
        suggestions: "did you mean" words from the rules' unstemmed vocabulary.
        expansions: every synonym or spelling correction applied to the query
            (``synonym: attack of opportunity → reprisal attack``).
    """

    query: str
    hits: tuple[Hit, ...] = ()
    hint: str = ""
    fts_query: str = ""
    suggestions: tuple[str, ...] = field(default=())
    expansions: tuple[str, ...] = field(default=())

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
                "suggestions": list(self.suggestions), "expansions": list(self.expansions),
                "hits": [h.to_dict() for h in self.hits]}

    def to_dataframe(self):
        """The hits as a pandas DataFrame (columns: id, ruleset, breadcrumb, text, score, ...)."""
        import pandas as pd

        columns = ["id", "ruleset", "breadcrumb", "text", "score", "kind", "section", "snippet", "matched_via"]
        rows = [{**h.to_dict(), "matched_via": "; ".join(h.matched_via)} for h in self.hits]
        return pd.DataFrame(rows, columns=columns)


# --------------------------------------------------------------------------------------------
# What the database knows, read once per connection


class _Index:
    """Per-database search data, read from the build's precomputed tables.

    At first use it reads only the word → stem map, the per-unit figures (length, ruleset, kind)
    and which units define which terms; a term's postings are read by key when a query first uses
    it, and a unit's text when it is first shown. All of it is kept for the connection's life.
    """

    def __init__(self, conn: sqlite3.Connection):
        import json

        self.key = id(conn)
        self.conn = conn
        self.stems: dict[str, str] = dict(conn.execute("SELECT word, stem FROM stems"))
        data = json.loads(conn.execute("SELECT value FROM search_index WHERE key = 'units'").fetchone()[0])
        self.rulesets: tuple[str, ...] = tuple(data["rulesets"])
        self.doclen: dict[int, int] = {}
        self.unit_ruleset: dict[int, str] = {}
        self.factor: dict[int, float] = {}
        for rowid, n, rs, supplement, heading in data["rows"]:
            self.doclen[rowid] = n
            self.unit_ruleset[rowid] = self.rulesets[rs]
            self.factor[rowid] = (SUPPLEMENT_FACTOR if supplement else 1.0) * (HEADING_FACTOR if heading else 1.0)
        self.doc_count = len(self.doclen) or 1
        self.avgdl = (sum(self.doclen.values()) / self.doc_count) or 1.0
        self._raw: dict[str, list] = {}
        self._vocab: list[str] | None = None
        self.units: dict[int, tuple] = {}
        self.tokens: dict[int, tuple] = {}
        self._seq: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._post: dict[tuple, dict[int, float]] = {}
        self._scoped: dict[tuple, dict[int, float]] = {}
        self._defining: dict[tuple, tuple[set[int], dict]] = {}
        labels: dict[int, set[str]] = {}
        for key, rowid in conn.execute(
                "SELECT g.key, u.rowid FROM glossary g JOIN units u ON u.id = g.unit_id "
                "WHERE g.style IN ('label', 'sentence')"):
            labels.setdefault(rowid, set()).update(self.stems.get(w, w) for w in key.split())
        #: rowid -> SUPPLEMENT_PROSE_FACTOR for supplement units that are not table rows.
        self.prose_factor: dict[int, float] = dict.fromkeys(
            (r for (r,) in conn.execute(
                "SELECT u.rowid FROM units u JOIN chapters c ON c.ruleset = u.ruleset AND c.chapter = u.chapter "
                "WHERE c.kind = 'supplement' AND u.kind != 'row'")), SUPPLEMENT_PROSE_FACTOR)
        for r in self.prose_factor:
            labels.pop(r, None)
        self.labels: dict[int, frozenset[str]] = {k: frozenset(v) for k, v in labels.items()}

    def raw(self, stem: str) -> list:
        """``[[rowid, hits in heading, hits in text], ...]`` for a stem (empty if no unit has it)."""
        got = self._raw.get(stem)
        if got is None:
            import json

            row = self.conn.execute("SELECT units FROM postings WHERE stem = ?", (stem,)).fetchone()
            got = json.loads(row[0]) if row else []
            self._raw[stem] = got
        return got

    def stems_with_prefix(self, prefix: str, n: int = 500) -> list[str]:
        rows = self.conn.execute("SELECT stem FROM postings WHERE stem >= ? AND stem < ? ORDER BY stem LIMIT ?",
                                 (prefix, prefix + "\uffff", n))
        return [r[0] for r in rows]

    def load_units(self, rowids) -> None:
        """Read the text and metadata of these units (those not read yet)."""
        missing = [r for r in rowids if r not in self.units]
        for k in range(0, len(missing), 500):
            chunk = missing[k:k + 500]
            for rowid, uid, ruleset, crumb, text, kind, section, heading in self.conn.execute(
                    "SELECT rowid, id, ruleset, breadcrumb, text, kind, section, heading FROM units "
                    f"WHERE rowid IN ({','.join('?' * len(chunk))})", chunk):
                self.units[rowid] = (uid, ruleset, crumb, text, kind, section, self.factor[rowid], heading)

    @property
    def vocab(self) -> list[str]:
        """Unstemmed vocabulary words (for "did you mean"), sorted."""
        if self._vocab is None:
            self._vocab = sorted(r[0] for r in self.conn.execute("SELECT term FROM vocab WHERE term GLOB '[a-z]*'"))
        return self._vocab

    def _bm25(self, n: int, counts: dict[int, tuple[int, int]]) -> dict[int, float]:
        """FTS5's bm25 contribution of one phrase in each unit (k1 1.2, b 0.75, heading weighted)."""
        idf = math.log((self.doc_count - n + 0.5) / (n + 0.5))
        if idf <= 0:
            idf = 1e-6
        k1, b, avgdl, doclen = 1.2, 0.75, self.avgdl, self.doclen
        out: dict[int, float] = {}
        for rowid, (h, t) in counts.items():
            tf = HEADING_WEIGHT * h + t
            out[rowid] = idf * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * doclen[rowid] / avgdl))
        return out

    def scoped(self, alt: "_Alt", scope: str | None) -> dict[int, float]:
        """:meth:`postings` restricted to one ruleset's units (kept per term and ruleset)."""
        post = self.postings(alt)
        if scope is None:
            return post
        key = (alt.stems, alt.prefix, scope)
        got = self._scoped.get(key)
        if got is None:
            ur = self.unit_ruleset
            got = self._scoped[key] = {r: c for r, c in post.items() if ur[r] == scope}
        return got

    def defining(self, alt: "_Alt", post: dict[int, float]) -> set[int]:
        """The units in ``post`` whose defined term holds every word of ``alt``."""
        key = (alt.stems, alt.prefix, id(post))
        got = self._defining.get(key)
        if got is None:
            labels = self.labels
            got = {r for r in labels.keys() & post.keys() if alt.stems and labels[r].issuperset(alt.stems)}
            self._defining[key] = (got, post)
            return got
        return got[0]

    def seq(self, rowid: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The stems of a unit's heading trail and of its text, in order."""
        got = self._seq.get(rowid)
        if got is None:
            if rowid not in self.units:
                self.load_units([rowid])
            u, st = self.units[rowid], self.stems
            got = (tuple(st.get(w, w) for w in map(fold, WORD_RE.findall(u[7]))),
                   tuple(st.get(w, w) for w in map(fold, WORD_RE.findall(u[3]))))
            self._seq[rowid] = got
        return got

    def postings(self, alt: "_Alt") -> dict[int, float]:
        """``{rowid: bm25 contribution}`` of the units an alternative matches (kept per term)."""
        key = (alt.stems, alt.prefix)
        got = self._post.get(key)
        if got is not None:
            return got
        if alt.prefix is None and len(alt.stems) == 1:
            rows = self.raw(alt.stems[0])
            got = self._bm25(len(rows), {r: (h, t) for r, h, t in rows})
        else:
            last = set(self.stems_with_prefix(alt.prefix)) if alt.prefix is not None else None
            sets = [{r for r, _, _ in self.raw(s)} for s in alt.stems]
            if last is not None:
                sets.append({r for s in last for r, _, _ in self.raw(s)})
            cands = set.intersection(*sets) if sets else set()
            self.load_units(cands)
            counts: dict[int, tuple[int, int]] = {}
            n = len(alt.stems)
            for r in cands:
                found = []
                for part in self.seq(r):
                    c = 0
                    for i in range(len(part) - n + 1):
                        if part[i:i + n] == alt.stems and (
                                last is None or (i + n < len(part) and part[i + n] in last)):
                            c += 1
                    found.append(c)
                if found[0] or found[1]:
                    counts[r] = (found[0], found[1])
            got = self._bm25(len(counts), counts)
        self._post[key] = got
        return got

    def unit_tokens(self, rowid: int) -> tuple[str, tuple, dict[str, tuple[int, ...]]]:
        """``(escaped text, ((start, end, stem, word), ...), {stem: token positions})``.

        Offsets are into the escaped text, so a snippet is cut from it without escaping again.
        Computed once per unit and kept.
        """
        cached = self.tokens.get(rowid)
        if cached is not None:
            return cached
        if rowid not in self.units:
            self.load_units([rowid])
        text = self.units[rowid][3]
        pieces: list[str] = []
        toks: list[tuple[int, int, str, str]] = []
        where: dict[str, list[int]] = {}
        pos = 0
        length = 0
        for m in WORD_RE.finditer(text):
            before = _escape(text[pos:m.start()])
            word = _escape(m.group())
            pieces.append(before)
            length += len(before)
            folded = fold(m.group())
            stem = self.stems.get(folded, folded)
            where.setdefault(stem, []).append(len(toks))
            toks.append((length, length + len(word), stem, folded))
            pieces.append(word)
            length += len(word)
            pos = m.end()
        pieces.append(_escape(text[pos:]))
        cached = ("".join(pieces), tuple(toks), {k: tuple(v) for k, v in where.items()})
        self.tokens[rowid] = cached
        return cached

    def stem(self, word: str) -> str:
        folded = fold(word)
        s = self.stems.get(folded)
        return s if s is not None else _stem_unknown(folded)

    def idf(self, stem: str) -> float:
        return math.log(1.0 + self.doc_count / (1.0 + len(self.raw(stem))))


@lru_cache(maxsize=4096)
def _stem_unknown(folded: str) -> str:
    return porter_stems([folded]).get(folded, folded)


_INDEXES: dict[int, tuple[sqlite3.Connection, _Index]] = {}
_INDEX_LOCK = threading.Lock()


def _index(conn: sqlite3.Connection) -> _Index:
    entry = _INDEXES.get(id(conn))
    if entry is not None and entry[0] is conn:
        return entry[1]
    with _INDEX_LOCK:
        if len(_INDEXES) > 16:
            _INDEXES.clear()
        _compiled_cached.cache_clear()  # a new index may reuse an old connection's id
        idx = _Index(conn)
        _INDEXES[id(conn)] = (conn, idx)
        return idx


# --------------------------------------------------------------------------------------------
# Compiling a query


@dataclass(frozen=True)
class _Alt:
    fts: str                      # quoted FTS5 phrase, maybe with a trailing *
    stems: tuple[str, ...]        # stems that must all be in a unit for it to match
    prefix: str | None            # folded prefix for a prefix term
    ruleset: str | None           # synonym scope: None = every ruleset
    note: str                     # "" for the words as typed, else "synonym: a → b"


@dataclass(frozen=True)
class _Group:
    alts: tuple[_Alt, ...]        # the words as typed first, then synonyms / corrections
    weight: float                 # idf of the group's rarest word


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _alt(words: list[str], idx: _Index, *, prefix: bool = False, ruleset: str | None = None,
         note: str = "") -> _Alt | None:
    parts = [p for w in words for p in WORD_RE.findall(fold(w))]
    if not parts:
        return None
    fts = _quote(" ".join(parts)) + ("*" if prefix else "")
    if prefix:
        return _Alt(fts, tuple(idx.stem(p) for p in parts[:-1]), parts[-1], ruleset, note)
    return _Alt(fts, tuple(idx.stem(p) for p in parts), None, ruleset, note)


def _group(alts: list[_Alt | None], idx: _Index) -> _Group | None:
    seen: dict[str, _Alt] = {}
    for a in alts:
        if a is not None and (a.fts, a.ruleset) not in {(b.fts, b.ruleset) for b in seen.values()}:
            seen[f"{a.fts}|{a.ruleset}"] = a
    if not seen:
        return None
    alts_t = tuple(seen.values())
    weight = max([max((idx.idf(s) for s in a.stems), default=1.0) for a in alts_t] + [0.1])
    return _Group(alts_t, weight)


def _synonym_tables(ruleset: str | None, idx: _Index) -> tuple[tuple[str | None, dict, dict], ...]:
    cache = idx.__dict__.setdefault("_syn_tables", {})
    got = cache.get(ruleset)
    if got is None:
        got = cache[ruleset] = _synonym_tables_for(ruleset, idx.rulesets, idx.stems)
    return got


def _stop(word: str) -> bool:
    return word in STOPWORDS or word.replace(" ", "") in STOPWORDS


def _synonym_tables_for(ruleset: str | None, rulesets: tuple[str, ...],
                        known: dict[str, str]) -> tuple[tuple[str | None, dict, dict], ...]:
    """``(scope, by full stems, by content stems)`` per synonym scope.

    Keys are tuples of Porter stems, so "attacks of opportunity" finds the entry for "attack of
    opportunity". The second mapping drops question words from keys of two or more content words
    ("order of phases" also matches "order of the phases").
    """
    if ruleset is not None:
        scoped = [(None, phrase_table(ruleset))]
    else:
        # Common synonyms apply everywhere; each ruleset's own only to its own units.
        common = phrase_table(COMMON)
        scoped = [(None, common)]
        for r in rulesets:
            own = {k: tuple(p for p in v if p not in common.get(k, ())) for k, v in phrase_table(r).items()}
            scoped.append((r, {k: v for k, v in own.items() if v}))
    words = {w for _, table in scoped for key in table for w in key}
    stem = {w: known[w] for w in words if w in known}
    stem.update(porter_stems(words - stem.keys()))
    out = []
    for scope, table in scoped:
        full: dict[tuple[str, ...], tuple[str, ...]] = {}
        content: dict[tuple[str, ...], tuple[str, ...]] = {}
        for key, phrases in table.items():
            full[tuple(stem.get(w, w) for w in key)] = phrases
            kept = [w for w in key if not _stop(w)]
            if len(kept) >= 2 or (kept and len(kept) == len(key)):
                content[tuple(stem.get(w, w) for w in kept)] = phrases
        out.append((scope, full, content))
    return tuple(out)


def _near_words(word: str, idx: _Index, spread: int) -> list[str]:
    """Vocabulary words of about the same length (±``spread``): the only ones difflib could rate close."""
    by_len = idx.__dict__.get("_vocab_by_len")
    if by_len is None:
        by_len = {}
        for w in idx.vocab:
            by_len.setdefault(len(w), []).append(w)
        idx._vocab_by_len = by_len
    return [w for n in range(len(word) - spread, len(word) + spread + 1) for w in by_len.get(n, ())]


def _correct(word: str, idx: _Index) -> str | None:
    """The closest vocabulary word to a word the rules never use (None if nothing is close).

    Same first letter, at most two letters longer or shorter, difflib ratio ≥ 0.84.
    """
    cache = idx.__dict__.setdefault("_corrections", {})
    if word in cache:
        return cache[word]
    near = [w for w in _near_words(word, idx, 2) if w[0] == word[0]]
    import difflib

    fix = next((c for c in difflib.get_close_matches(word, near, n=3, cutoff=0.84) if c not in STOPWORDS), None)
    if len(cache) < 4096:
        cache[word] = fix
    return fix


def _compile(query: str, idx: _Index, ruleset: str | None) -> tuple[list[_Group], list[str]]:
    """Groups of alternatives for a query, and the notes of every synonym/correction used."""
    text = (query or "").translate(_QUOTES)
    groups: list[_Group] = []
    notes: list[str] = []

    phrase_words: list[list[str]] = []

    def take(match: re.Match) -> str:
        words = [w.rstrip("*") for w in _TOKEN.findall(match.group(1))]
        words = [w for w in words if w]
        if words:
            phrase_words.append(words)
        return " "

    rest = _PHRASE.sub(take, text[:20000])
    for words in phrase_words[:MAX_TERMS]:
        g = _group([_alt(words, idx)], idx)
        if g:
            groups.append(g)

    raw = _TOKEN.findall(rest)[:MAX_WORDS]
    toks = [(t.rstrip("*"), t.endswith("*")) for t in raw if t.rstrip("*")]
    folded = [" ".join(WORD_RE.findall(fold(t))) for t, _ in toks]
    stemmed = [" ".join(idx.stem(w) for w in f.split()) for f in folded]
    tables = _synonym_tables(ruleset, idx)
    used = [False] * len(toks)
    pending: list[tuple[int, _Group]] = []
    content_pos = [i for i, f in enumerate(folded) if not _stop(f)]

    def try_span(positions: list[int], which: int) -> None:
        # Longest GM phrase first, then shorter ones; a word belongs to one synonym at most.
        for n in range(5, 0, -1):
            for k in range(0, len(positions) - n + 1):
                span = positions[k:k + n]
                if any(used[i] or toks[i][1] for i in span):
                    continue
                key = tuple(" ".join(stemmed[i] for i in span).split())
                typed = " ".join(toks[i][0] for i in range(span[0], span[-1] + 1))
                alts: list[_Alt | None] = []
                for scope, *maps in tables:
                    for phrase in maps[which].get(key, ()):
                        alts.append(_alt(phrase.split(), idx, ruleset=scope, note=f"synonym: {typed} → {phrase}"))
                if not any(alts):
                    continue
                words = [folded[i] for i in span if not _stop(folded[i])]
                if words:
                    alts.insert(0, _alt(words, idx))
                g = _group(alts, idx)
                if g:
                    for i in range(span[0], span[-1] + 1):
                        used[i] = True
                    pending.append((span[0], g))

    try_span(list(range(len(toks))), 0)
    try_span([i for i in content_pos if not used[i]], 1)
    singles: list[tuple[int, _Group]] = []
    corrections = 0
    for i, (tok, prefix) in enumerate(toks):
        if used[i]:
            continue
        low = folded[i]
        if not prefix and _stop(low):
            continue
        words = tok.replace("–", "-").split()
        alts = [_alt(words, idx, prefix=prefix)]
        a = alts[0]
        if (a is not None and not prefix and len(a.stems) == 1 and not idx.raw(a.stems[0])
                and len(low) >= 4 and low.isalpha() and corrections < MAX_CORRECTIONS):
            corrections += 1
            fix = _correct(low, idx)
            if fix:
                alts.append(_alt([fix], idx, note=f"spelling: {tok} → {fix}"))
        g = _group(alts, idx)
        if g:
            singles.append((i, g))
    if not phrase_words and not pending and not singles:
        # Only stopwords (e.g. "AND", "the"): search them as typed rather than nothing.
        for i, (tok, prefix) in enumerate(toks):
            g = _group([_alt(tok.split(), idx, prefix=prefix)], idx)
            if g:
                singles.append((i, g))
    groups += [g for _, g in sorted(pending + singles, key=lambda p: p[0])]
    # Keep the FTS expression bounded: at most MAX_TERMS alternatives in all.
    budget, kept = MAX_TERMS, []
    for g in groups:
        if budget <= 0:
            break
        alts = g.alts[:budget]
        budget -= len(alts)
        kept.append(g if len(alts) == len(g.alts) else _group(list(alts), idx))
    for g in kept:
        for a in g.alts:
            if a.note and a.note not in notes:
                notes.append(a.note)
    return kept, notes


@lru_cache(maxsize=512)
def _compiled_cached(query: str, ruleset: str | None, key: int) -> tuple[tuple[_Group, ...], tuple[str, ...]]:
    idx = _INDEXES[key][1]
    groups, notes = _compile(query, idx, ruleset)
    return tuple(groups), tuple(notes)


def _compiled(query: str, ruleset: str | None, idx: _Index) -> tuple[tuple[_Group, ...], tuple[str, ...]]:
    """:func:`_compile`, memoised per query text like a prepared-statement cache (not the results)."""
    if len(query) > 500:
        groups, notes = _compile(query, idx, ruleset)
        return tuple(groups), tuple(notes)
    return _compiled_cached(query, ruleset, idx.key)


def _fts(groups) -> str:
    seen: list[str] = []
    for g in groups:
        for a in g.alts:
            if a.fts not in seen:
                seen.append(a.fts)
    return " OR ".join(seen)


def compile_query(query: str, *, db=None, rules=None) -> tuple[str, str]:
    """Return ``(all_groups, any_group)`` FTS5 expressions for a user query (``""`` if nothing to search).

    ``all_groups`` requires every group (``AND``); ``any_group`` is what :func:`search` runs.
    Uses the default database for stems and spelling.
    """
    idx = _index(connect(rules or db))
    groups, _ = _compile(query or "", idx, None)
    if not groups:
        return "", ""
    ors = ["(" + " OR ".join(a.fts for a in g.alts) + ")" if len(g.alts) > 1 else g.alts[0].fts for g in groups]
    return " AND ".join(ors), _fts(groups)


# --------------------------------------------------------------------------------------------
# Searching


def _snippet(idx: _Index, rowid: int, marks: set[str], prefixes: tuple[str, ...]) -> str:
    """The unit's escaped text (at most SNIPPET_TOKENS words around the first match) with
    ``<mark>`` around every word whose stem is in ``marks`` or that starts with a prefix."""
    escaped, toks, where = idx.unit_tokens(rowid)
    hits = [k for m in marks.intersection(where) for k in where[m]]
    if prefixes:
        hits += [k for k, t in enumerate(toks)
                 if t[2] not in marks and any(t[3].startswith(p) or t[2].startswith(p) for p in prefixes)]
    if len(hits) > 1:
        hits.sort()
    n = len(toks)
    if n <= SNIPPET_TOKENS:
        lo, hi, pos, end, out = 0, n, 0, len(escaped), []
    else:
        lo = max(0, min((hits[0] if hits else 0) - 4, n - SNIPPET_TOKENS))
        hi = lo + SNIPPET_TOKENS
        pos = toks[lo][0]
        end = len(escaped) if hi >= n else toks[hi - 1][1]
        out = ["…"] if lo else []
    for k in hits:
        if lo <= k < hi:
            s, e = toks[k][0], toks[k][1]
            out += (escaped[pos:s], "<mark>", escaped[s:e], "</mark>")
            pos = e
    out.append(escaped[pos:end])
    if hi < n:
        out.append("…")
    return "".join(out)


def search(query: str, ruleset: str | None = None, limit: int = 10, *,
           db=None, rules=None) -> SearchResults:
    """Search every rule, list item and table row.

    Args:
        query: any text. Words are stemmed (``parries`` finds Parry); ``"a phrase"`` or
            “curly quotes” match a phrase; ``word*`` matches a prefix; GM words are expanded by
            the synonym data (``HP`` finds Health) and misspellings corrected (``flankng``).
            Punctuation, FTS5 keywords, unbalanced quotes and HTML are all searched as plain words.
        ruleset: restrict to one ruleset id (``mastery``, ``mythras``, ``darkmaster`` or a house one).
        limit: maximum hits, 1–1000.
        db: database path (default: the standard location, built on first use).

    Returns:
        :class:`SearchResults`, best hit first; empty with a ``hint`` for an empty query or no match.

    Raises:
        ValueError: unknown ruleset or a limit outside 1–1000.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
        raise RulesInputError("limit", f"must be an integer from 1 to 1000, got {limit!r}")
    conn = connect(rules or db)
    idx = _index(conn)
    if ruleset is not None and ruleset not in idx.rulesets:
        raise RulesInputError("ruleset", f"unknown ruleset {ruleset!r}; choose one of: {', '.join(idx.rulesets)}")
    query = query if isinstance(query, str) else str(query)
    groups, notes = _compiled(query, ruleset, idx)
    if not groups:
        hint = ("Type a word or a phrase to search the rules, e.g. parry, \"fighting on\" or trauma."
                if not query.strip() else
                "Nothing searchable in that query; type a word or a phrase, e.g. parry or \"fighting on\".")
        return SearchResults(query=query, hint=hint)
    expr = _fts(groups)
    unit_ruleset = idx.unit_ruleset
    total = sum(g.weight for g in groups) or 1.0
    cover: dict[int, float] = {}
    bm: dict[int, float] = {}
    per_group: list[tuple[_Group, dict[int, float], list[tuple[_Alt, dict[int, float]]], dict[int, float]]] = []
    for g in groups:
        posts = [(a, idx.scoped(a, a.ruleset if a.ruleset is not None else ruleset)) for a in g.alts
                 if a.ruleset is None or ruleset is None or a.ruleset == ruleset]
        if not posts:
            continue
        if len(posts) == 1:
            seen = posts[0][1]
        else:
            seen = dict(posts[0][1])
            for _a, p in posts[1:]:
                for r, c in p.items():
                    seen[r] = seen.get(r, 0.0) + c
        # Units matching the GM's own words count fully; where every typed word was a question word
        # ("don't"), the synonym stands for them and counts fully too.
        has_typed = not posts[0][0].note
        typed = posts[0][1] if has_typed else seen
        w = g.weight
        ws = w * SYNONYM_FACTOR
        # A unit that defines the word ("Evade: …", "Durability. Durability is …") counts it more.
        defining: set[int] = set()
        for a, p in posts:
            defining |= idx.defining(a, p)
        per_group.append((g, seen, posts, posts[0][1] if has_typed else {}))
        if len(groups) == 1:
            break  # scored in one pass below
        if not cover:
            cover = {r: (w if r in typed else ws) for r in seen}
            bm = dict(seen)
        else:
            for r, c in seen.items():
                cover[r] = cover.get(r, 0.0) + (w if r in typed else ws)
                bm[r] = bm.get(r, 0.0) + c
        for r in defining:
            cover[r] += (w if r in typed else ws) * LABEL_BONUS
    factor, prose = idx.factor, idx.prose_factor
    if len(groups) == 1 and per_group:
        # The same score as below for one group: its (typed or synonym) weight, times the
        # definition bonus, over the total weight, plus the bm25 part.
        k, kl = w / total, w / total * (1.0 + LABEL_BONUS)
        ks, ksl = k * SYNONYM_FACTOR, kl * SYNONYM_FACTOR
        ranked = [((((kl if r in defining else k) if r in typed else (ksl if r in defining else ks))
                    + BM25_SHARE * (b := c * factor[r]) / (1.0 + b)) * prose.get(r, 1.0), -r)
                  for r, c in seen.items()]
    else:
        ranked = [((c / total + BM25_SHARE * (b := bm[r] * factor[r]) / (1.0 + b)) * prose.get(r, 1.0), -r)
                  for r, c in cover.items()]
    top = heapq.nlargest(limit, ranked)
    best = [-r for _, r in top]
    scores = {-r: sc for sc, r in top}
    idx.load_units(best)
    units = idx.units
    hits: list[Hit] = []
    for rowid in best:
        uid, rs, crumb, text, kind, section = units[rowid][:6]
        marks: set[str] = set()
        prefixes: list[str] = []
        via: list[str] = []
        for _g, seen, posts, typed in per_group:
            if rowid not in seen:
                continue
            if len(posts) == 1 and posts[0][0].prefix is None and not posts[0][0].note:
                marks.update(posts[0][0].stems)  # the common case: one word, as typed
                continue
            typed_matched = rowid in typed
            for a, p in posts:
                if rowid in p and (a.ruleset is None or a.ruleset == rs):
                    marks.update(a.stems)
                    if a.prefix is not None:
                        prefixes.append(a.prefix)
                    if a.note and not typed_matched and a.note not in via:
                        via.append(a.note)
        hits.append(Hit(uid, rs, crumb, _snippet(idx, rowid, marks, tuple(prefixes)), text,
                        round(scores[rowid], 6), kind, section, tuple(via)))
    if hits:
        return SearchResults(query=query, hits=tuple(hits), fts_query=expr, expansions=tuple(notes))
    suggestions = tuple(suggest(query, db=db, rules=rules))
    return SearchResults(query=query, hint=_no_match_hint(query, ruleset, suggestions, db, rules),
                         fts_query=expr, suggestions=suggestions, expansions=tuple(notes))


def _no_match_hint(query: str, ruleset: str | None, suggestions: tuple[str, ...], db, rules=None) -> str:
    """What to try when nothing matches: did-you-mean words, other rulesets' matches, or where to browse."""
    hint = f"No rules match {query.strip()[:80]!r}"
    if ruleset is not None:
        others = sorted({h.ruleset for h in search(query, None, 50, db=db, rules=rules)})
        if others:
            return (f"{hint} in {ruleset}; it matches in {', '.join(others)} "
                    "(search without the ruleset filter to see them).")
        hint += f" in {ruleset}"
    if suggestions:
        return f"{hint}. Did you mean: {', '.join(suggestions)}?"
    return (f"{hint}. Try a broader or different word (the book's own term, e.g. parry, trauma, phase), "
            "or browse with `ruleslawyer tables` and `ruleslawyer define TERM`.")


def suggest(query: str, *, db=None, rules=None, n: int = 3) -> list[str]:
    """Spelling suggestions for the words of ``query`` from the unstemmed vocabulary of the rules.

    Args:
        query: any text.
        n: at most this many suggestions.

    Returns:
        Vocabulary words close to the query's words that the rules never use, best first.
    """
    import difflib

    idx = _index(connect(rules or db))
    vocab_set = set(idx.vocab)
    words = [fold(w).rstrip("*") for w in _TOKEN.findall((query or "").translate(_QUOTES)[:20000]) if len(w) > 2][:8]
    out: list[str] = []
    for w in words:
        if w in vocab_set or w in STOPWORDS or not w:
            continue
        for m in difflib.get_close_matches(w, _near_words(w, idx, max(2, len(w) // 3)), n=n, cutoff=0.75):
            if m not in out:
                out.append(m)
    return out[:n]


def complete(prefix: str, *, db=None, rules=None, n: int = 10) -> list[str]:
    """Type-ahead: vocabulary words starting with the last word of ``prefix``, most frequent first."""
    words = _TOKEN.findall((prefix or "").translate(_QUOTES)[-200:].lower())
    if not words:
        return []
    stem = fold(words[-1].rstrip("*"))
    if not stem:
        return []
    conn = connect(rules or db)
    rows = conn.execute(
        "SELECT term FROM vocab WHERE term >= ? AND term < ? ORDER BY cnt DESC, term LIMIT ?",
        (stem, stem + "\uffff", n))
    return [r[0] for r in rows]
