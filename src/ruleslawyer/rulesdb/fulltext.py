"""Full-text search over the rules: any string is a valid query, ranked by SQLite FTS5.

User text is never handed to SQL raw: :mod:`ruleslawyer.rulesdb.query` cuts a query into groups
of quoted FTS5 alternatives (the GM's words, their synonyms, spelling corrections), reading the
synonym data, stems and vocabulary the build stored in the database.

Ranking runs in SQLite: each group runs one FTS5 ``MATCH`` per part (the GM's own words; the
group's synonyms in another) ranked by ``bm25()`` with the unit's section title weighted
``HEADING_WEIGHT`` and the titles above it ``TRAIL_WEIGHT`` times the body, plus two more bm25
calls weighing the body alone and the section title alone, which tell a unit that holds the word
from one that only sits under a heading holding it. Python combines the groups' rows and applies
the policy: a hit's score is the weighted share of the query's groups it matches (so a unit
matching every group comes first, as with AND, then units matching fewer, as with OR), where

- a group's weight grows with the rarity of its words; filler words weigh little;
- a match through a synonym counts ``SYNONYM_FACTOR``, a match only through the unit's own
  section title ``OWN_TITLE_FACTOR`` and only through a title further up ``TRAIL_FACTOR``: the
  sentence holding the word ranks above its siblings that only share the heading, and a hit
  matched through its heading says so (``Hit.matched_heading``: the heading with the words marked)
  — except under a section the query names ("fighting on"), whose units are what it asks for;
- a unit defining the word (``Evade: …``, a table row named ``Bash``) counts ``LABEL_BONUS`` more,
  twice that when the question asks what something is or means;
- adjacent words found side by side ("hit location") add a bonus group;
- a question asking for a quantity ("how many", "what die") favours units stating a number, and
  more those whose number counts a thing it asks about ("how many phases": "a nine-phase list");
- a number given with the rollable table it was rolled on ("rolled 25 for trauma", "97 on the d100")
  favours that table's row whose faces hold it (``FACE_FACTOR``), and a number given after the first
  column's name of a table read by a number ("STR+SIZ 74") the row covering it (``KEY_FACTOR``);
- an item of a list is also found through the unit introducing the list, its *lead-in* ("All basic
  actions cost 1 AP:" for "Attack: Make one melee or ranged attack"), and a table's row through its
  header ("AP Cost" for "Item, Pick Up | 1"), weighted like the titles above it, and says so
  (``Hit.listed_under``); two rows of one table among the first hits are followed by the paragraph
  introducing the table, when the query met it;
- chapters come before the kit's supplement (``SUPPLEMENT_FACTOR`` on bm25, its prose
  ``SUPPLEMENT_PROSE_FACTOR`` and its rows ``SUPPLEMENT_ROW_FACTOR`` overall) and a section title
  (``TITLE_FACTOR``) below the text under it; among the first ``FIRST_PLACES`` hits a second
  supplement hit gives way to a chapter rule scoring at least ``CHAPTER_SHARE`` of it;
- bm25 (squashed into [0, ``BM25_SHARE``)) breaks ties; with no ruleset selected, each ruleset's
  best answer that is nearly as good as the top one is shown among the first hits, so one
  ruleset's many matches for a synonym cannot bury another's one good answer.

Snippets are cut from the text and escaped before ``<mark>`` goes in: the words marked are the
rules' own forms of the matched stems (the ``words`` table), or FTS5's ``snippet()`` for text
beyond ASCII. ``SearchResults.fts_query`` holds the equivalent FTS5 ``MATCH`` expression (every
term quoted), usable in Datasette.
"""

from __future__ import annotations

import re
import sqlite3

from ruleslawyer.errors import RulesInputError
from ruleslawyer.limits import clip

from .query import (MAX_CORRECTED_LETTERS, META_SQL, Compiled, Group, Part, SearchData, _in, compile_query_text,
                    rows as _rows)
from .session import SESSION, in_session
from .words import HEADING_WEIGHT, LEAD_IN_WEIGHT, STOPWORDS, TRAIL_WEIGHT, fold, normalize, query_tokens

__all__ = ["Hit", "SearchResults", "compile_query", "search", "suggest", "complete", "HEADING_WEIGHT",
           "STOPWORDS"]

SNIPPET_TOKENS = 32
#: A snippet marked in Python shows about this many characters around the first match.
SNIPPET_CHARS = 200
#: Rows one part's ``MATCH`` returns at most (best bm25 first): bounds the work on a huge corpus.
GROUP_ROWS = 300

#: Weights of the ranking policy (see the module docstring).
LABEL_BONUS = 0.5
BM25_SHARE = 0.25
OWN_TITLE_FACTOR = 0.9
TRAIL_FACTOR = 0.7
#: With no ruleset selected and the GM's own word in some unit, a synonym's match in a unit defining
#: the word counts up to this much (just under the GM's own word).
SYNONYM_CAP = 0.99
#: A unit holding the word that opens a section whose title holds it too counts this much more.
LEAD_FACTOR = 1.1
TITLE_FACTOR = 0.8
NUMBER_FACTOR = 1.25
#: ... and this much more where the number counts the very thing asked about ("a nine-phase list").
COUNT_FACTOR = 1.15
#: A row of the rollable table the question names whose faces hold the number it gives ("rolled 25 for
#: trauma") counts this much more.
FACE_FACTOR = 3.0
#: A row of a table read by a number covering the number given after its first column's name
#: ("STR+SIZ 74") or the table's ("damage modifier for 28") counts this much more, and that table's
#: other rows this much less: the column's name may be a word of other rules too ("Endurance tier 3"),
#: so less than a rolled face.
KEY_FACTOR = 1.5
SUPPLEMENT_FACTOR = 0.8
SUPPLEMENT_PROSE_FACTOR = 0.85
SUPPLEMENT_ROW_FACTOR = 0.93
#: A sentence introducing a list among this many first hits is followed by its best item.
INTRO_PLACES = 2
#: Among the first ``FIRST_PLACES`` hits, a second supplement hit gives way to the best chapter hit
#: scoring at least ``CHAPTER_SHARE`` of it (the supplement restates; the chapter is the rule).
FIRST_PLACES = 3
CHAPTER_SHARE = 0.9
#: With no ruleset selected, a ruleset's best hit scoring at least this share of the top score is
#: moved up among the first hits.
OTHER_RULESET_SHARE = 0.75

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "«": '"', "»": '"',
                         "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'"})
_START, _END = "\ue000", "\ue001"  # never in stored text (the build strips them)


class _Record:
    """A read-only record with named fields (what a frozen dataclass gives, without importing
    ``dataclasses`` and ``inspect`` on a cold command-line search): keyword or positional
    construction in field order, defaults, equality, hashing, ``repr``, pickling and copying,
    ``match`` by position (``__match_args__``) and ``to_dict``."""

    __slots__ = ()
    _defaults: dict = {}

    def __init__(self, *args, **kwargs):
        names = self.__slots__
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes at most {len(names)} fields")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in values:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated field {k!r}")
            values[k] = v
        for k in names:
            if k not in values:
                if k not in self._defaults:
                    raise TypeError(f"{type(self).__name__}: missing field {k!r}")
                values[k] = self._defaults[k]
            object.__setattr__(self, k, values[k])

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __reduce__(self):
        # pickle, copy and deepcopy rebuild the record from its fields
        return (type(self), self._values())

    def _values(self) -> tuple:
        return tuple(getattr(self, k) for k in self.__slots__)

    def __eq__(self, other):
        return type(other) is type(self) and other._values() == self._values()

    def __hash__(self):
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"

    def _asdict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}


class Hit(_Record):
    """One ranked search hit.

    Attributes:
        id: citation id of the unit (``mastery/combat/death/fighting-on#2``).
        ruleset: ruleset id.
        breadcrumb: ``Mastery › Combat › Death › Fighting On ¶2``.
        snippet: HTML: the escaped text around the match with ``<mark>`` around matched terms.
        text: the unit's full text (plain, unescaped).
        score: relevance, higher is better: the weighted share of the query's words (or synonym
            groups) the unit matches, a bonus where the unit defines the word (``Evade: …``),
            plus its bm25 squashed into [0, 0.25).
        kind: ``heading``, ``paragraph``, ``item`` or ``row``.
        section: the section id the unit belongs to.
        matched_via: how a GM's word reached the book's: ``synonym: HP → health``,
            ``spelling: flankng → flanking`` (empty when the words matched as typed).
        matched_heading: HTML, empty unless some of the query's words match the unit only through
            its section heading: then the heading trail (``Death › <mark>Fighting</mark> On``),
            escaped, with those words marked.
        listed_under: HTML, empty unless some of the query's words match the unit (an item of a
            list) only through the unit introducing its list: then that unit's text (``All
            <mark>basic</mark> <mark>actions</mark> cost 1 AP:``; a long one cut around the marks
            as the snippet is), escaped, with those words marked; for a row, its table's header
            (``Action Type · <mark>AP</mark> <mark>Cost</mark> · Notes``).
    """

    __slots__ = ("id", "ruleset", "breadcrumb", "snippet", "text", "score", "kind", "section", "matched_via",
                 "matched_heading", "listed_under")
    __match_args__ = __slots__
    _defaults = {"matched_via": (), "matched_heading": "", "listed_under": ""}

    def to_dict(self) -> dict:
        d = self._asdict()
        d["matched_via"] = list(self.matched_via)
        return d


class SearchResults(_Record):
    """Hits for one query, best first, plus a hint when there is nothing (or little) to show.

    Iterable and indexable like a list of :class:`Hit`; ``to_dataframe()`` gives a pandas DataFrame.

    Attributes:
        query: the query as given.
        hits: the hits, best first.
        hint: a sentence for the user when there are no hits (or the query was empty), in the command
            line's words (it may name ``ruleslawyer`` commands to browse with).
        fts_query: the FTS5 expression that was run.
        suggestions: "did you mean" words from the rules' unstemmed vocabulary.
        expansions: every synonym or spelling correction applied to the query
            (``synonym: attack of opportunity → reprisal attack``).
        plain_hint: the same sentence as ``hint`` without advice tied to one front end (no command,
            no tab, no example words of one ruleset): what a panel or another program shows,
            adding its own way to browse. ``""`` when ``hint`` is.
    """

    __slots__ = ("query", "hits", "hint", "fts_query", "suggestions", "expansions", "plain_hint")
    __match_args__ = __slots__
    _defaults = {"hits": (), "hint": "", "fts_query": "", "suggestions": (), "expansions": (), "plain_hint": ""}

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
                "plain_hint": self.plain_hint, "hits": [h.to_dict() for h in self.hits]}

    def to_dataframe(self):
        """The hits as a pandas DataFrame (columns: id, ruleset, breadcrumb, text, score, ...)."""
        import pandas as pd

        columns = ["id", "ruleset", "breadcrumb", "text", "score", "kind", "section", "snippet", "matched_via",
                   "matched_heading", "listed_under"]
        rows = [{**h.to_dict(), "matched_via": "; ".join(h.matched_via)} for h in self.hits]
        return pd.DataFrame(rows, columns=columns)


# --------------------------------------------------------------------------------------------
# The database's search data, kept on its rules handle


def _handle(db, rules):
    from .handle import resolve_rules

    return resolve_rules(rules if rules is not None else db)


def _data(handle) -> tuple[sqlite3.Connection, SearchData]:
    conn = handle.connection()
    return conn, handle.cached("search", lambda: SearchData(conn))


def _compiled(query: str, ruleset: str | None, conn: sqlite3.Connection, data: SearchData) -> Compiled:
    """The compiled query, kept per query text and ruleset like a prepared statement (not the results)."""
    if len(query) > 500:
        return compile_query_text(query, conn, data, ruleset)
    key = (query, ruleset)
    got = data.compiled.get(key)
    if got is None:
        if len(data.compiled) >= 512:
            data.compiled.clear()
        got = data.compiled[key] = compile_query_text(query, conn, data, ruleset)
    return got


def _fts(groups: tuple[Group, ...]) -> str:
    return " OR ".join(dict.fromkeys(a.fts for g in groups if not g.bonus for p in g.parts for a in p.alts))


def compile_query(query: str, *, db=None, rules=None) -> tuple[str, str]:
    """Return ``(all_groups, any_group)`` FTS5 expressions for a user query (``""`` if nothing to search).

    ``all_groups`` requires every group (``AND``); ``any_group`` is every alternative OR-ed, the
    expression :attr:`SearchResults.fts_query` shows. Uses the default database for stems and spelling.
    """
    conn, data = _data(_handle(db, rules))
    groups = tuple(g for g in compile_query_text(query or "", conn, data, None).groups if not g.bonus)
    if not groups:
        return "", ""
    ors = []
    for g in groups:
        alts = [a.fts for p in g.parts for a in p.alts]
        ors.append("(" + " OR ".join(alts) + ")" if len(alts) > 1 else alts[0])
    return " AND ".join(ors), _fts(groups)


# --------------------------------------------------------------------------------------------
# Ranking

_PART_SQL = ("SELECT {i}, rowid, bm25(units_fts, {h}, 1.0, {t}, {l}), bm25(units_fts, 0.0, 1.0, 0.0, 0.0), "
             "bm25(units_fts, 1.0, 0.0, 0.0, 0.0) FROM units_fts WHERE units_fts MATCH ?{filter}")


def _statement(compiled: Compiled, ruleset: str | None, data: SearchData) -> tuple[str, tuple]:
    """One SQL statement running every part's ``MATCH`` (``UNION ALL``, each row tagged with its
    part's number), and its parameters; kept on the compiled query. A part scoped to a ruleset
    reads the rowid runs of that ruleset's units (an FTS5 rowid range, no join)."""
    got = compiled.cache.get("sql")
    if got is None:
        selects, params = [], []
        for i, p in enumerate(p for g in compiled.groups for p in g.parts):
            scope = ruleset if ruleset is not None else p.scope
            runs = data.runs.get(scope, ((0, -1),)) if scope else ()
            where = " OR ".join(["rowid BETWEEN ? AND ?"] * len(runs))
            where = f" AND ({where})" if len(runs) > 1 else f" AND {where}" if runs else ""
            selects.append(_PART_SQL.format(i=i, h=HEADING_WEIGHT, t=TRAIL_WEIGHT, l=LEAD_IN_WEIGHT, filter=where))
            params += [p.fts, *(x for run in runs for x in run)]
        got = compiled.cache["sql"] = (" UNION ALL ".join(selects), tuple(params))
    return got


#: What ends a sentence or a clause, in the scripts the rules may be written in: a quoted phrase is
#: not read across it.
_SENTENCE_END = ".!?;:。｡？！；：؟؛।॥"
#: Past this many characters times the phrase's words, a unit none of whose sentences holds the phrase
#: is not searched whole for it (the words, FTS5 says, are there in a row: so across a sentence end).
_SENTENCE_CHECK_MAX = 2_000_000
_SENTENCE_SPLIT = re.compile(f"[{re.escape(_SENTENCE_END)}]")
_WORD_RUN = re.compile(r"\w+")


def _within_sentences(conn: sqlite3.Connection, rows: list, stems: tuple[str, ...], data: SearchData) -> list:
    """The rows of a quoted phrase's ``MATCH`` less the units that hold its words in a row only across
    the end of a sentence ("continue fighting. On a failure" for "fighting on"): FTS5 reads a phrase as
    consecutive words and never sees the full stop. Each word is any of the rules' words with its stem
    (``penalty``, ``penalties``). The phrase is looked for sentence by sentence (one with fewer words
    than the phrase is passed over), so a huge unit costs its length once. A unit the check cannot read
    (a stem no word of the rules has; the words nowhere in the text as the check reads it) is kept, as
    FTS5 found it."""
    forms = data.forms(conn, set(stems))
    if not all(forms.get(s) for s in stems):
        return rows
    texts = dict(_in(conn, "SELECT rowid, heading || ' . ' || body || ' . ' || trail || ' . ' || coalesce(lead_in, '') "
                           "FROM units WHERE rowid IN ({})", [r[1] for r in rows], tuple))
    words = ["(?:" + "|".join(re.escape(w) for w in sorted(forms[s], key=len, reverse=True)) + ")" for s in stems]
    phrase = re.compile(r"(?<!\w)" + r"\W+".join(words) + r"(?!\w)")
    kept = []
    for row in rows:
        text = fold(texts.get(row[1], ""))
        if any(len(_WORD_RUN.findall(sentence)) >= len(stems) and phrase.search(sentence)
               for sentence in _SENTENCE_SPLIT.split(text)):
            kept.append(row)
        elif len(text) * len(stems) <= _SENTENCE_CHECK_MAX and not phrase.search(text):
            kept.append(row)  # the check does not see the words FTS5 found: keep the unit
    return kept


class _Unit:
    """A candidate's running totals while the groups' rows are combined, and its fixed factors."""

    __slots__ = ("cover", "bm", "ruleset", "factor", "supplement", "heading_only", "via", "items", "intro")

    def __init__(self, ruleset: str, kind: int, title: int, number: int, quantity: bool, counts: bool = False,
                 items: int = 0, face: float = 1.0, intro: int = 0):
        self.items = items  # the list items it introduces, if it is a sentence ending in a colon
        self.intro = intro  # a row's: the paragraph introducing its table (0: none)
        self.cover = 0.0
        self.bm = 0.0
        self.ruleset = ruleset
        # the kit's supplement after the chapters (1 for a chapter's or house rules' unit)
        self.supplement = SUPPLEMENT_PROSE_FACTOR if kind == 2 else SUPPLEMENT_ROW_FACTOR if kind == 1 else 1.0
        factor = 1.0
        if title:
            factor *= TITLE_FACTOR
        if quantity and number:
            factor *= NUMBER_FACTOR
        if counts:
            factor *= COUNT_FACTOR
        # a row a number was read on: FACE_FACTOR (a rolled face) or KEY_FACTOR, its table's other rows 1/KEY_FACTOR
        self.factor = factor * face
        self.heading_only = False
        self.via: list[Part] = []


def _run(conn: sqlite3.Connection, compiled: Compiled, ruleset: str | None, data: SearchData) -> dict[int, _Unit]:
    """Run the query's one statement and combine its rows, group by group, into candidates (a
    part's best ``GROUP_ROWS`` rows by bm25 at most)."""
    sql, params = _statement(compiled, ruleset, data)
    rows: list[list] = [[] for _g in compiled.groups for _p in _g.parts]
    for row in _rows(conn, sql, params):
        rows[row[0]].append(row)
    for k, got in enumerate(rows):
        if len(got) > GROUP_ROWS:
            rows[k] = sorted(got, key=lambda row: row[2])[:GROUP_ROWS]
    for k in compiled.quoted:  # a quoted phrase's groups come first, one part each
        if rows[k]:
            rows[k] = _within_sentences(conn, rows[k], compiled.groups[k].parts[0].alts[0].stems, data)
    try:
        return _combine(rows, compiled, ruleset, data.meta)
    except KeyError:  # units no search has met yet: read their ranking data at once, combine again
        missing = sorted({row[1] for got in rows for row in got} - data.meta.keys())
        if not missing:
            raise
        for k in range(0, len(missing), 500):
            chunk = missing[k:k + 500]
            data.meta.update((r[0], r[1:]) for r in _rows(conn, META_SQL.format(",".join("?" * len(chunk))), chunk))
        return _combine(rows, compiled, ruleset, data.meta)


def _combine(rows: list[list], compiled: Compiled, ruleset: str | None, meta: dict[int, tuple]) -> dict[int, _Unit]:
    """The parts' rows (``rows[k]``: part k's) combined, group by group, into candidates.

    Raises:
        KeyError: a row's unit is not in ``meta`` yet.
    """
    units: dict[int, _Unit] = {}
    label_bonus = LABEL_BONUS * (2.0 if compiled.definition else 1.0)
    k = 0
    for g in compiled.groups:  # the adjacent-pairs group, last, only adds to units found before
        best: dict[int, list] = {}
        # across rulesets, where some unit holds the GM's own word, a synonym's definition never
        # outranks it (with the word nowhere in the rules, the book's words are all there is)
        capped = ruleset is None and bool(rows[k]) and g.parts[0].factor == 1.0
        for p in g.parts:
            _take(rows[k], p, g, label_bonus, capped, compiled, units, best, meta)
            k += 1
        _add(g, best, units)
    return units


def _take(rows: list, p: Part, g: Group, label_bonus: float, capped: bool, compiled: Compiled,
          units: dict[int, _Unit], best: dict[int, list], meta: dict[int, tuple]) -> None:
    """Add one part's rows to its group's ``best`` (per unit: value, bm25, in the body, synonym
    parts, matched as typed); the best part counts.

    A match only through the unit's section title counts ``OWN_TITLE_FACTOR``, only through a title
    above it ``TRAIL_FACTOR`` — except under a section the query, or the part's alternative, names
    (its rowid runs): there the heading is what was asked for.
    """
    typed = p.factor == 1.0 and not any(a.note for a in p.alts)
    named, defining, factor = compiled.sections + compiled.lifted + p.sections, p.defining, p.factor
    cap = SYNONYM_CAP if capped and factor < 1.0 else 1e9
    bonus, quantity = g.bonus, compiled.quantity
    for _i, rowid, b, body, own in rows:
        value = factor
        if body >= 0.0:
            if not (named and any(lo <= rowid <= hi for lo, hi in named)):
                value *= OWN_TITLE_FACTOR if own < 0.0 else TRAIL_FACTOR
        elif own < 0.0 and meta[rowid][4]:
            value *= LEAD_FACTOR  # the opening of a section about the word
        if rowid in defining:
            value = min(value * (1.0 + label_bonus), cap)  # a definition counts more
        got = best.get(rowid)
        if got is None:
            if rowid not in units:
                if bonus:
                    continue
                ruleset, kind, title, number = meta[rowid][:4]
                face = (FACE_FACTOR if rowid in compiled.faces else KEY_FACTOR if rowid in compiled.keyed
                        else 1.0 / KEY_FACTOR if rowid in compiled.unkeyed else 1.0)
                units[rowid] = _Unit(ruleset, kind, title, number, quantity, rowid in compiled.counted, meta[rowid][6],
                                     face, meta[rowid][7])
            best[rowid] = got = [0.0, 0.0, False, [], False]
        if value > got[0]:
            got[0] = value
        b *= -factor  # bm25 of the book's word, not the GM's, counts less
        if b > got[1]:
            got[1] = b
        if body < 0.0:
            got[2] = True
        if typed:
            got[4] = True
        else:
            got[3].append(p)


def _add(g: Group, best: dict[int, list], units: dict[int, _Unit]) -> None:
    w = g.weight
    for rowid, (value, b, in_body, parts, typed) in best.items():
        u = units[rowid]
        u.cover += w * value
        u.bm += b
        if not in_body and not g.bonus:
            u.heading_only = True
        if parts and not typed:
            u.via += parts


def _rank(units: dict[int, _Unit], compiled: Compiled, ruleset: str | None, limit: int) -> list[tuple[float, int]]:
    """The best ``limit`` units as ``(score, rowid)``, best first (document order breaks ties).

    A unit's score: its cover over the query's total weight, plus bm25 squashed into [0, BM25_SHARE)
    (a supplement's bm25 times SUPPLEMENT_FACTOR), times its factors; a unit of a section the query
    names is read in order, its heading first (document order stands in for bm25; chapter or
    supplement alike, the GM named it). With no ruleset
    selected, each other ruleset's best hit close to the top one is moved up.
    """
    total = sum(g.weight for g in compiled.groups if not g.bonus) or 1.0
    scored = []
    for r, u in units.items():
        b = u.bm * SUPPLEMENT_FACTOR if u.supplement < 1.0 else u.bm
        scored.append(((u.cover / total + BM25_SHARE * b / (1.0 + b)) * u.factor * u.supplement, -r))
    if compiled.sections:
        for k, (sc, r) in enumerate(scored):
            run = next(((lo, hi) for lo, hi in compiled.sections if lo <= -r <= hi), None)
            if run is not None:
                u, (lo, hi) = units[-r], run
                share = BM25_SHARE * (1.0 - 0.5 * (-r - lo) / (hi - lo + 1))
                # the heading first, as the section shows it
                scored[k] = ((u.cover / total + share) * (u.factor / TITLE_FACTOR if -r == lo else u.factor), r)
    scored.sort(reverse=True)
    ranked = [(sc, -r) for sc, r in scored[:limit]]
    if ruleset is None and ranked:
        best: dict[str, tuple[float, int]] = {}
        for sc, r in scored[:limit * 4]:
            best.setdefault(units[-r].ruleset, (sc, -r))
        moved = sorted((v for v in best.values() if v[0] >= OTHER_RULESET_SHARE * ranked[0][0]), reverse=True)
        if len(moved) > 1:
            ranked = (moved + [x for x in ranked if x not in moved])[:limit]
    score = {-r: sc for sc, r in scored}
    return _falling(_intro_follows(_chapter_first(_items_follow(ranked, score, units, limit), scored, units),
                                   score, units, limit))


def _chapter_first(ranked: list[tuple[float, int]], scored: list[tuple[float, int]],
                   units: dict[int, _Unit]) -> list[tuple[float, int]]:
    """Chapter before supplement among the first ``FIRST_PLACES`` hits: a second supplement hit
    there gives way to the best chapter hit not yet above it that scores at least ``CHAPTER_SHARE``
    of it (``scored``: every candidate, best first, rowids negated)."""
    out = list(ranked)
    for place in range(min(FIRST_PLACES, len(out))):
        sc, r = out[place]
        if units[r].supplement == 1.0 or all(units[x].supplement == 1.0 for _s, x in out[:place]):
            continue
        above = {x for _s, x in out[:place]}
        pick = next(((s, -x) for s, x in scored if units[-x].supplement == 1.0 and -x not in above), None)
        if pick is None or pick[0] < CHAPTER_SHARE * sc:
            continue
        out = out[:place] + [pick] + [x for x in out[place:] if x[1] != pick[1]]
    return out[:len(ranked)]


def _intro_follows(ranked: list[tuple[float, int]], score: dict[int, float], units: dict[int, _Unit],
                   limit: int) -> list[tuple[float, int]]:
    """Two or more rows of one table among the first ``FIRST_PLACES`` hits ("Hard | ×2/3", "Formidable
    | ×1/2") are followed by the paragraph introducing their table, when the query met it and it is
    not above them yet ("A grade scales the skill before the roll"): the rows answer in parts, it
    says what they are (its score as shown: :func:`_falling`)."""
    first = ranked[:FIRST_PLACES]
    for place, (_sc, r) in enumerate(first):
        intro = units[r].intro
        if (not intro or intro not in units or any(x == intro for _s, x in first)
                or sum(units[x].intro == intro for _s, x in first) < 2):
            continue
        rest = [x for x in ranked[place + 1:] if x[1] != intro]
        return (ranked[:place + 1] + [(score[intro], intro)] + rest)[:limit]
    return ranked


def _falling(ranked: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """The scores as the list reads them: a hit the policy moved above a better-scored one (another
    ruleset's best hit, a list's item after its sentence) shows that one's score, never rising down the list."""
    out = list(ranked)
    for k in range(len(out) - 2, -1, -1):
        if out[k][0] < out[k + 1][0]:
            out[k] = (out[k + 1][0], out[k][1])
    return out


def _items_follow(ranked: list[tuple[float, int]], score: dict[int, float], units: dict[int, _Unit],
                  limit: int) -> list[tuple[float, int]]:
    """A sentence introducing a list among the first ``INTRO_PLACES`` hits ("When you reach 0 health:",
    which answers nothing by itself) is followed by its best-scoring item that the query met, so the
    first hits hold an answer (its score as shown: :func:`_falling`)."""
    for place in range(min(INTRO_PLACES, len(ranked))):
        intro = ranked[place][1]
        if not units[intro].items:
            continue
        met = [r for r in range(intro + 1, intro + 1 + units[intro].items) if r in units]
        shown = {r for _s, r in ranked[:place + 2]}  # up to the hit right after it
        if not met or shown.intersection(met):
            continue  # one of its items is already above it, or right after it
        pick = max(met, key=lambda r: (score[r], -r))
        rest = [x for x in ranked[place + 1:] if x[1] != pick]
        ranked = (ranked[:place + 1] + [(score[pick], pick)] + rest)[:limit]
    return ranked


# --------------------------------------------------------------------------------------------
# Hits: text, snippet, marks

_HIT_SQL = ("SELECT rowid, id, ruleset, breadcrumb, text, kind, section, body, heading, trail, lead_in "
            "FROM units WHERE rowid IN ({})")
_FTS_HIT_SQL = ("SELECT rowid, snippet(units_fts, 1, '\ue000', '\ue001', '…', "
                f"{SNIPPET_TOKENS}), highlight(units_fts, 0, '\ue000', '\ue001'), "
                "highlight(units_fts, 2, '\ue000', '\ue001'), "
                f"snippet(units_fts, 3, '\ue000', '\ue001', '…', {SNIPPET_TOKENS}) FROM units_fts "
                "WHERE units_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))")
_WORD = re.compile(r"[A-Za-z0-9]+")


_SPECIAL = re.compile("[&<>\"'\ue000\ue001]")


def _escape(text: str) -> str:
    """``text`` escaped for HTML (what ``html.escape(text, quote=True)`` does, without importing html),
    with the FTS5 markers turned into ``<mark>``."""
    if _SPECIAL.search(text) is None:
        return text
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&#x27;").replace(_START, "<mark>").replace(_END, "</mark>"))


def _meant(a) -> tuple[str, ...]:
    """The stems of an alternative worth marking: its words but the question words ("99 or 00")."""
    kept = tuple(s for w, s in zip(a.words, a.stems) if w not in STOPWORDS)
    return kept or a.stems


def _patterns(conn: sqlite3.Connection, data: SearchData, compiled: Compiled, ruleset: str) -> dict:
    """What marks a hit of ``ruleset``: the rules' own forms of the stems of every alternative that
    applies to it (``all``: words and prefixes), and of each alternative (which synonym matched)."""
    got = compiled.cache.get(ruleset)
    if got is None:
        alts = [a for g in compiled.groups if not g.bonus for p in g.parts for a in p.alts
                if a.scope in (None, ruleset)]
        forms = data.forms(conn, {s for a in alts for s in a.stems})
        each = {a: (frozenset(w for s in _meant(a) for w in forms.get(s, [s])), (a.prefix,) if a.prefix else ())
                for a in alts}
        words = frozenset(w for ws, _p in each.values() for w in ws)
        # "all": words, prefixes, and the words a text's word set cannot vouch for (not one run of
        # letters and digits: found by their spans alone)
        got = compiled.cache[ruleset] = {"all": (words, tuple(a.prefix for a in alts if a.prefix),
                                                 frozenset(w for w in words if not w.isalnum())), "each": each}
    return got


_TOKEN = re.compile(r"[^\W_]+")  # a run of what str.isalnum() calls letters and digits

_Marks = tuple[frozenset[str], tuple[str, ...], frozenset[str]]


def _tokens(*texts: str) -> frozenset[str]:
    """The words (runs of letters and digits) of ``texts``, lowercased: a whole word of the marks is
    in a text only if it is among them, so :func:`_found` looks for no other."""
    return frozenset(_TOKEN.findall("\n".join(texts).lower()))


def _found(low: str, marks: _Marks, tokens: frozenset[str] | None = None) -> list[tuple[int, int]]:
    """Spans of the whole words of ``low`` (lowercase text) in ``marks`` (words, prefixes, words not
    made of letters and digits alone) or starting with one of its prefixes, in order (of overlapping
    spans, the first). ``tokens``: :func:`_tokens` of a text holding ``low``, to skip absent words."""
    whole, prefixes, odd = marks
    words = whole if tokens is None else (whole & tokens) | odd if odd else whole & tokens
    spans = []
    n = len(low)
    find = low.find
    for w in words:  # most are not in the text: one find each
        i = find(w)
        while i >= 0:
            j = i + len(w)
            if (i == 0 or not low[i - 1].isalnum()) and (j == n or not low[j].isalnum()):
                spans.append((i, j))
            i = find(w, j)
    for w in prefixes:
        if w in whole:
            continue  # a prefix that is also a word marks whole words only
        i = find(w)
        while i >= 0:
            j = i + len(w)
            if i == 0 or not low[i - 1].isalnum():
                while j < n and low[j].isalnum():
                    j += 1
                spans.append((i, j))
            i = find(w, j)
    if len(spans) < 2:
        return spans
    spans.sort()
    return [s for k, s in enumerate(spans) if k == 0 or s[0] >= spans[k - 1][1]]


def _mark(text: str, marks: _Marks, window: int = 0, tokens: frozenset[str] | None = None) -> str:
    """``text`` (ASCII words) escaped, every word in ``marks`` (or starting with one of its prefixes) in
    ``<mark>``; with ``window``, at most about that many characters around the first marked word, cut
    at spaces (``…`` where cut). ``tokens``: as :func:`_found`'s."""
    spans = _found(text.lower(), marks, tokens)
    start, end, out = 0, len(text), []
    if window and end > window:
        first = spans[0][0] if spans else 0
        start = max(0, min(first - window // 6, end - window))
        if start:
            start = text.find(" ", start, first) + 1 or start
            out.append("…")
        end = start + window
        if end < len(text):
            end = text.rfind(" ", start, end) if " " in text[start:end] else end
    # escape each piece only when the text holds something to escape (most rules' text does not)
    escape = _escape if _SPECIAL.search(text, start, end) is not None else str
    pos = start
    for a, b in spans:
        if a >= start and b <= end:
            out += (escape(text[pos:a]), "<mark>", escape(text[a:b]), "</mark>")
            pos = b
    out.append(escape(text[pos:end]))
    if end < len(text):
        out.append("…")
    return "".join(out)


def _via(u: _Unit, where: str, pats: dict, tokens: frozenset[str] | None = None) -> tuple[str, ...]:
    """The notes of the synonyms (and corrections) whose words are in ``where`` (a hit's text and
    headings; ``tokens``: its :func:`_tokens`), for the groups the unit matched only through them."""
    if not u.via:
        return ()
    low = where.lower()
    seen = {low[a:b] for a, b in _found(low, pats["all"], tokens)}
    notes = []
    for p in u.via:
        for a in p.alts:
            words, prefixes = pats["each"].get(a, (frozenset(), ()))
            if a.note and (not seen.isdisjoint(words) or (prefixes and any(w.startswith(prefixes) for w in seen))):
                notes.append(a.note)
    return tuple(dict.fromkeys(notes))


def _heading(trail: str, heading: str) -> str:
    return f"{trail} › {heading}" if trail else heading


def _hits(conn: sqlite3.Connection, data: SearchData, ranked: list[tuple[float, int]], units: dict[int, _Unit],
          compiled: Compiled) -> list[Hit]:
    """The hits for ranked rowids: text and breadcrumb, the snippet, and the heading or the lead-in
    a unit matched only through, with their marks."""

    rows = data.hit_rows  # the units' rows, each with the words of its text and headings
    missing = [r for _s, r in ranked if r not in rows]
    if missing:
        rows.update((r[0], (*r, _tokens(r[7], r[8], r[9], r[10])))
                    for r in _rows(conn, _HIT_SQL.format(",".join("?" * len(missing))), missing))
    beyond = [r for _s, r in ranked if not data.meta[r][5]]
    fts = _fts_marks(conn, compiled, beyond, units) if beyond else {}
    hits = []
    for score, r in ranked:
        _r, uid, rs, crumb, text, kind, section, body, heading, trail, lead_in, tokens = rows[r]
        u = units[r]
        if r in fts:
            snippet, marked, listed = fts[r]
            via = tuple(dict.fromkeys(a.note for p in u.via for a in p.alts if a.note and _has(conn, a.fts, r)))
        else:
            pats = _patterns(conn, data, compiled, rs)
            snippet = _mark(body, pats["all"], SNIPPET_CHARS, tokens)
            marked = _mark(_heading(trail, heading), pats["all"], 0, tokens) if u.heading_only else ""
            listed = _mark(lead_in, pats["all"], SNIPPET_CHARS, tokens) if u.heading_only and lead_in else ""
            via = _via(u, f"{body}\n{heading}\n{trail}\n{lead_in}", pats, tokens)
        if r in compiled.keyed:  # the row a number was read on says so ("STR+SIZ: 74 is in 71–80")
            via = (*via, compiled.keyed[r])
        if "<mark>" not in listed:
            listed = ""
        elif "<mark>" not in marked:
            marked = ""  # matched through the lead-in, not the heading
        hits.append(Hit(uid, rs, crumb, snippet, text, round(score, 6), kind, section, via, marked, listed))
    return hits


def _fts_marks(conn: sqlite3.Connection, compiled: Compiled, rowids: list[int],
               units: dict[int, _Unit]) -> dict[int, tuple[str, str]]:
    """``{rowid: (snippet, marked heading, marked lead-in)}`` from FTS5's snippet() and highlight(),
    for text beyond ASCII."""
    out: dict[int, tuple[str, str, str]] = {}
    for rs in sorted({units[r].ruleset for r in rowids}):
        ids = [r for r in rowids if units[r].ruleset == rs]
        expr = " OR ".join(dict.fromkeys(a.fts for g in compiled.groups for p in g.parts for a in p.alts
                                         if a.scope in (None, rs)))
        for r, snippet, heading, trail, lead_in in _rows(conn, _FTS_HIT_SQL, (expr, f"[{','.join(map(str, ids))}]")):
            only = units[r].heading_only
            out[r] = (_escape(snippet), _escape(_heading(trail, heading)) if only else "",
                      _escape(lead_in) if only and lead_in else "")
    return out


def _has(conn: sqlite3.Connection, fts: str, rowid: int) -> bool:
    return bool(_rows(conn, "SELECT 1 FROM units_fts WHERE units_fts MATCH ? AND rowid = ?", (fts, rowid)))


# --------------------------------------------------------------------------------------------
# Searching


def search(query: str, ruleset: str | None = SESSION, limit: int = 10, *,
           db=None, rules=None) -> SearchResults:
    """Search every rule, list item and table row.

    Args:
        query: any text (None: an empty query, answered with a hint). Words are stemmed (``parries`` finds Parry); ``"a phrase"`` or
            “curly quotes” match a phrase; ``word*`` matches a prefix; GM words are expanded by
            the synonym data (``HP`` finds Health) and misspellings corrected (``flankng``).
            Punctuation, FTS5 keywords, unbalanced quotes and HTML are all searched as plain words;
            the query is put in NFKC and its invisible characters (zero width joiners and spaces, soft
            hyphens) removed first, as the sources were when indexed
            (:func:`ruleslawyer.rulesdb.words.normalize`).
        ruleset: restrict to one ruleset id (``mastery``, ``mythras``, ``darkmaster`` or a house one);
            None: every ruleset; not given: the session's ruleset
            (:func:`ruleslawyer.rulesdb.session.set_session_ruleset`, set by the search panel), every
            ruleset while none is set.
        limit: maximum hits, 1–1000.
        db: database path (default: the standard location, built on first use).
        rules: a :class:`~ruleslawyer.rulesdb.handle.Rules` handle (instead of ``db``).

    Returns:
        :class:`SearchResults`, best hit first; empty with a ``hint`` for an empty query or no match.

    Raises:
        RulesInputError: unknown ruleset (field ``ruleset``; for the session's default the message
            says how to clear it), a limit outside 1–1000 (``limit``), or a query that is neither a
            string nor None (``query``).
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
        raise RulesInputError("limit", f"must be an integer from 1 to 1000, got {limit!r}")
    handle = _handle(db, rules)
    ruleset = in_session(ruleset, rules=handle)
    conn, data = _data(handle)
    if ruleset is not None and ruleset not in data.rulesets:
        raise RulesInputError("ruleset", f"unknown ruleset {clip(ruleset)}; choose one of: {', '.join(data.rulesets)}")
    if query is None:
        query = ""
    elif not isinstance(query, str):
        raise RulesInputError("query", f"must be text (a string; None is an empty query), got "
                                       f"{type(query).__name__} {query!r:.80}")
    compiled = _compiled(query, ruleset, conn, data)
    if not compiled.groups:
        plain = ("Type a word or a phrase to search the rules." if not query.strip() else
                 "Nothing searchable in that query; type a word or a phrase.")
        hint = ("Type a word or a phrase to search the rules, e.g. parry, \"fighting on\" or trauma."
                if not query.strip() else
                "Nothing searchable in that query; type a word or a phrase, e.g. parry or \"fighting on\".")
        return SearchResults(query=query, hint=hint, plain_hint=plain)
    units = _run(conn, compiled, ruleset, data)
    expr = _fts(compiled.groups)
    ranked = _rank(units, compiled, ruleset, limit)
    if ranked:
        hits = _hits(conn, data, ranked, units, compiled)
        return SearchResults(query=query, hits=tuple(hits), fts_query=expr, expansions=compiled.notes)
    suggestions = tuple(suggest(query, db=db, rules=rules))
    plain, hint = _no_match_hint(query, ruleset, suggestions, db, rules)
    return SearchResults(query=query, hint=hint, plain_hint=plain,
                         fts_query=expr, suggestions=suggestions, expansions=compiled.notes)


def _no_match_hint(query: str, ruleset: str | None, suggestions: tuple[str, ...], db,
                   rules=None) -> tuple[str, str]:
    """What to try when nothing matches, ``(plain hint, the command line's hint)``: did-you-mean
    words, other rulesets' matches, or a broader word (the command line's then names its commands
    to browse with)."""
    hint = f"No rules match {query.strip()[:80]!r}"
    if ruleset is not None:
        others = sorted({h.ruleset for h in search(query, None, 50, db=db, rules=rules)})
        if others:
            both = (f"{hint} in {ruleset}; it matches in {', '.join(others)} "
                    "(search without the ruleset filter to see them).")
            return both, both
        hint += f" in {ruleset}"
    if suggestions:
        both = f"{hint}. Did you mean: {', '.join(suggestions)}?"
        return both, both
    return (f"{hint}. Try a broader or different word (the book's own term).",
            f"{hint}. Try a broader or different word (the book's own term, e.g. parry, trauma, phase), "
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

    conn, data = _data(_handle(db, rules))
    text = normalize((query or "")[:20000]).translate(_QUOTES)
    words = [fold(w).rstrip("*") for w in query_tokens(text) if len(w) > 2][:8]
    known = data.words(conn, set(words))
    out: list[str] = []
    for w in words:
        if not w or w in STOPWORDS or known.get(w, ("", 0))[1] or len(w) > MAX_CORRECTED_LETTERS:
            continue
        # words of about its length starting as it does (or with its first two letters swapped)
        near = [v for v, _docs in data.near_words(conn, w, max(2, len(w) // 3))
                if v[0] == w[0] or (len(v) > 1 and v[0] == w[1] and v[1] == w[0])]
        for m in difflib.get_close_matches(w, near, n=n, cutoff=0.75):
            if m not in out and m != w:
                out.append(m)
    return out[:n]


def complete(prefix: str, *, db=None, rules=None, n: int = 10) -> list[str]:
    """Type-ahead: vocabulary words starting with the last word of ``prefix``, most frequent first."""
    words = query_tokens(normalize((prefix or "")[-200:]).translate(_QUOTES))
    if not words:
        return []
    stem = fold(words[-1].rstrip("*"))
    if not stem:
        return []
    conn = _handle(db, rules).connection()
    rows = conn.execute(
        "SELECT term FROM vocab WHERE term >= ? AND term < ? ORDER BY cnt DESC, term LIMIT ?",
        (stem, stem + "\uffff", n))
    return [r[0] for r in rows]
