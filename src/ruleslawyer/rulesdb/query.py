"""Compiling a search query: the GM's words into groups of FTS5 alternatives.

A query is put in NFKC (as the sources were when indexed) and cut into *groups*: a quoted phrase
(straight or curly quotes), a word (hyphenated and apostrophe words become phrases, a trailing
``*`` stays a prefix), or a GM phrase with a synonym (``attack of opportunity`` → ``reprisal
attack``). Everything it needs comes from tables the build wrote (see ``schema.sql``): ``words``
(stem, how many units hold it), ``synonyms`` (the synonym data by Porter-stem key), ``labels``
(units defining a term), ``titles`` (sections by name) and the ``vocab`` for spelling. Nothing
here runs a full-text query: :mod:`ruleslawyer.rulesdb.search` runs one ``MATCH`` per part.

- Negations (``don't``, ``doesn't``, ``without``, ``no``…) become ``not``, so one synonym entry
  ``not parry`` serves every way of saying it.
- A word the rules never use is corrected to the closest word they do use ("flankng" → "flanking").
- Question words are dropped when anything else is left, and so is the player's own "character"
  ("my character" is "I"); filler a GM adds ("right away", "the guy") weighs ``FILLER_WEIGHT`` of a word.
- Adjacent word pairs make one extra group, so "hit location" side by side outranks "hit" here
  and "location" there.
"""

from __future__ import annotations

import math
import re
import sqlite3

from .words import NEGATIONS, STOPWORDS, common_english, fold, normalize, porter_stems, query_tokens

__all__ = ["Alt", "Part", "Group", "Compiled", "SearchData", "compile_query_text", "rows", "NEGATIONS", "FILLER"]

#: Synonym keys (hits and misses) kept per database before the cache starts again.
SYNONYM_CACHE = 20_000
MAX_TERMS = 32
MAX_WORDS = 64
MAX_CORRECTIONS = 4
#: A longer word is never spelling-corrected (nor suggested for): no rules word is nearly this long,
#: and comparing one costs its length squared.
MAX_CORRECTED_LETTERS = 30
#: Letters each word of a closed compound split in two has at least ("flatfooted": flat footed).
MIN_SPLIT = 3
MAX_BIGRAMS = 8
#: At most this many rows of a table read by a number are weighed for one number a question gives for it.
MAX_KEYED_ROWS = 200
#: At most this many table rows whose range holds a number typed (:meth:`SearchData.covering`).
MAX_COVERING = 8
#: A match through a synonym counts this much of a match of the GM's own words; through a
#: spelling correction, SPELLING_FACTOR.
SYNONYM_FACTOR = 0.75
SPELLING_FACTOR = 0.9
#: With a ruleset selected that has its own synonyms for the words, the common ones count this much:
#: the ruleset's own word for a thing comes first.
COMMON_FACTOR = 0.5
#: The adjacent-pairs group weighs this times its rarest pair's weight.
PHRASE_WEIGHT = 0.5
#: A group's weight is its rarest word's idf raised to this power (1: plain idf, 0: every group
#: counts the same); a group of filler words weighs FILLER_WEIGHT of that.
IDF_POWER = 1.0
FILLER_WEIGHT = 0.3
#: What follows "instead of" or "rather than" (what the GM turns away from) weighs this much.
CONTRAST_WEIGHT = 0.3
#: The one meaningful word of a GM idiom with a synonym ("got the drop on") counts this much, as typed.
IDIOM_FACTOR = 0.5
_CONTRAST = frozenset({("instead", "of"), ("rather", "than")})

#: Words a GM's question carries around what it asks ("can my character just step away"), and the
#: cast of the table's story ("the orc runs away from my fighter"): who is acting, not the rule asked.
FILLER = frozenset("""
not right away just only still want wants wanted go going goes get gets getting got take takes make makes use way thing
things guy guys someone somebody people person character characters player players pc pcs npc npcs
happen happens work works like really actually basically even maybe need needs try trying able
allowed let lets ok okay kind sort lot stuff while there here now again already else instead
come comes coming came through into onto across around about under toward towards during yet
out off up down away over along
but though although because wanna gonna gotta kinda sorta lemme literally
number amount
cause causes caused than rather whether very some such those everyone everybody anyone anybody
tries tried bother bothers bothered vs versus mean means meaning after see per
fighter fighters hero heroes orc orcs goblin goblins troll trolls bandit bandits ogre ogres wizard wizards
mage mages rogue rogues thief thieves cleric clerics warrior warriors barbarian barbarians monster monsters
villain villains mook mooks minion minions boss dude buddy friend friends party
""".split())

#: Words whose "'s" is "is" or "us" ("what's", "let's"), not a possessive or a plural.
_IS_BEFORE = frozenset("what that it he she there here who where how when why let everyone something".split())

#: "My character", "our guy": the player speaking of their own, no more than "I" or "we" (dropped).
_OWN = frozenset({"my", "our", "your"})
_SELF = frozenset({"character", "characters", "pc", "pcs", "guy", "guys", "hero", "heroes", "toon", "dude"})

#: "Crit range", "fumble range": the faces that give a result, not a distance (the word is dropped).
_SPAN = frozenset({"range", "ranges"})
_SPAN_OF = frozenset({"success", "crit", "critical", "fumble", "failure", "fail", "roll", "dice", "die", "d100", "d20",
                      "percentile", "number", "numbers", "special", "open", "ended", "explode", "exploding"})

#: After "<number> or": the faces beyond it ("97 or higher", "5 or less"), not a word to match.
_BEYOND = frozenset({"higher", "more", "above", "better", "over", "up", "lower", "less", "below", "under", "worse",
                     "greater", "fewer", "so"})

#: Before "die", words making it the die rolled ("what die", "a die", "the tier die"), not dying.
_DIE_NOUN = frozenset({"a", "the", "what", "which", "one", "each", "tier", "your", "my", "this", "that", "same",
                       "another", "other", "every"})

#: Before "die", words making it dying ("I die", "will die", "to die"), not the die rolled.
_DIE_VERB = frozenset({"i", "you", "he", "she", "we", "they", "it", "character", "pc", "guy", "will", "would", "to",
                       "might", "could", "can", "not", "ll", "d", "gonna", "and", "or", "then", "instantly"})

#: Words that name a kind of text rather than a topic ("damage modifier table" names the section
#: "Damage Modifier").
_NAMING = frozenset({"table", "tables", "chart", "list", "rule", "rules", "section"})

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "«": '"', "»": '"',
                         "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'"})
_PHRASE = re.compile(r'"([^"]*)"')
#: "d%" (or "1d%"), the percentile die: the rules write d100.
_PERCENTILE = re.compile(r"(?<!\w)(1?)d%", re.IGNORECASE)
_JOIN = re.compile(r"['\-–]")
_QUANTITY = re.compile(r"\b(?:how (?:many|much|far|long|often|big|large|fast)|number of|what (?:die|dice)|"
                       r"which (?:die|dice)|how is .* (?:rolled|calculated|worked out))\b")
_DEFINITION = re.compile(r"\b(?:what (?:is|are|does|do)|what s|whats|meaning|define|definition|mean|means"
                         r"|abbreviation|acronym|stands? for"
                         r"|counts? as|what counts|how does .* work"
                         # "is CMB basically my attack bonus": what the word is, asked by a guess
                         r"|^(?:is|are) (?!(?:there|it|this|that|i|we|you) )(?:(?:a|an|the) )?(?:\w+ ){1,2}"
                         r"(?:basically|just|really|like|the same as|same as|kind of|sort of|a kind of|a type of))\b")


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _stop(word: str) -> bool:
    return word in STOPWORDS or word.replace(" ", "") in STOPWORDS


class Alt:
    """One alternative of a group: an FTS5 phrase (or ``("a" AND "b")``), maybe a prefix.

    Attributes:
        fts: the quoted FTS5 expression.
        stems: its Porter stems (defined terms, highlighting).
        scope: only this ruleset's units (a ruleset's own synonym); None: any.
        note: "" for the words as typed, else ``synonym: a → b`` / ``spelling: …``.
        words: its folded words; prefix: the folded prefix of a ``word*``.
        factor: how much a match through it counts (1 for the words as typed).
    """

    __slots__ = ("fts", "stems", "scope", "note", "words", "prefix", "factor")

    def __init__(self, fts: str, stems: tuple[str, ...], scope: str | None, note: str,
                 words: tuple[str, ...] = (), prefix: str | None = None, factor: float = 1.0):
        self.fts, self.stems, self.scope, self.note = fts, stems, scope, note
        self.words, self.prefix, self.factor = words, prefix, factor


class Part:
    """One ``MATCH`` a group runs: its typed alternatives, its corrections, or one scope's synonyms,
    with the units defining one of them and the rowid runs of the sections one of them names."""

    __slots__ = ("fts", "scope", "factor", "alts", "defining", "sections")

    def __init__(self, fts: str, scope: str | None, factor: float, alts: tuple[Alt, ...],
                 defining: frozenset[int], sections: tuple[tuple[int, int], ...] = ()):
        self.fts, self.scope, self.factor, self.alts = fts, scope, factor, alts
        self.defining, self.sections = defining, sections


class Group:
    """Parts standing for one thing the GM asked (a word, a phrase); ``bonus``: the adjacent-pairs
    group, which adds to a unit's score and never finds one."""

    __slots__ = ("parts", "weight", "bonus")

    def __init__(self, parts: tuple[Part, ...], weight: float, bonus: bool = False):
        self.parts, self.weight, self.bonus = parts, weight, bonus


class Compiled:
    """A compiled query: its groups, the notes of every synonym/correction used, its intents (asks
    how many or which die; asks what something is), the rowid runs of the sections it names (all its
    words: read in order, heading first) and of those its topic words name ("damage modifier table":
    their units hold the words through their heading), and a cache for what the search derives from
    it (its SQL statement, highlighting per ruleset)."""

    __slots__ = ("groups", "notes", "quantity", "definition", "sections", "lifted", "counted", "quoted", "faces",
                 "keyed", "unkeyed", "cache")

    def __init__(self, groups: tuple[Group, ...], notes: tuple[str, ...], quantity: bool, definition: bool,
                 sections: tuple[tuple[int, int], ...] = (), lifted: tuple[tuple[int, int], ...] = (),
                 counted: frozenset[int] = frozenset(), quoted: tuple[int, ...] = (), faces: frozenset[int] = frozenset(),
                 keyed: dict[int, str] | None = None, unkeyed: frozenset[int] = frozenset()):
        self.groups, self.notes, self.quantity, self.definition = groups, notes, quantity, definition
        #: the rows of a rollable table the question names whose faces hold a number it typed ("rolled
        #: 25 for trauma": the Trauma Table row 25)
        self.faces = faces
        #: the rows of a table read by a number (``table_keys``) covering a number the question gives
        #: right after the table's first column's name ("STR+SIZ 74": 71–80) or the table's name
        #: ("damage modifier for 28"), each with its note ("STR+SIZ: 74 is in 71–80 (Damage Modifier)"),
        #: and the other rows of those tables (not the one asked about)
        self.keyed, self.unkeyed = keyed or {}, unkeyed
        self.sections, self.lifted = sections, lifted
        #: the groups (each one part) of the phrases the GM quoted, of two or more words: a unit holds
        #: such a phrase only within a sentence ("fighting on" is not "…fighting. On a failure")
        self.quoted = quoted
        #: for a quantity question, the units counting a thing it asks about ("how many phases": "a
        #: nine-phase list"; the ``counted`` table)
        self.counted = counted
        self.cache: dict = {}


def _runs(meta: dict[int, tuple]) -> dict[str, tuple[tuple[int, int], ...]]:
    """The runs of consecutive rowids of each ruleset's units (one run each when built in order)."""
    runs: dict[str, list[list[int]]] = {}
    for rowid in sorted(meta):
        got = runs.setdefault(meta[rowid][0], [])
        if got and got[-1][1] == rowid - 1:
            got[-1][1] = rowid
        else:
            got.append([rowid, rowid])
    return {rs: tuple((lo, hi) for lo, hi in r) for rs, r in runs.items()}


#: ``search_units`` rows as :attr:`SearchData.meta` holds them, for the rowids bound to its ``IN ({})``.
META_SQL = ("SELECT rowid, ruleset, kind, title, number, lead, ascii, items, intro FROM search_units "
            "WHERE rowid IN ({})")


def _stored_runs(conn: sqlite3.Connection) -> dict[str, tuple[tuple[int, int], ...]]:
    """Each ruleset's rowid runs, as the build stored them (``meta.search_runs``), else read whole."""
    got = rows(conn, "SELECT value FROM meta WHERE key = 'search_runs'")
    if not got:
        return _runs({r[0]: r[1:] for r in rows(conn, "SELECT rowid, ruleset FROM search_units")})
    runs: dict[str, list[tuple[int, int]]] = {}
    for line in got[0][0].splitlines():
        rs, lo, hi = line.split(" ")
        runs.setdefault(rs, []).append((int(lo), int(hi)))
    return {rs: tuple(r) for rs, r in runs.items()}


#: The vocabulary of :meth:`SearchData.vocab`: the rules' words, then the synonym data's words the
#: rules lack (with their stems), then the synonym keys (stems).
_VOCAB_SQL = "SELECT term, doc FROM vocab WHERE term GLOB '[a-z]*'"
_SYNONYM_WORDS_SQL = ("SELECT word, stem FROM words WHERE word GLOB '[a-z]*' AND word NOT GLOB '*[^a-z]*' "
                      "AND word NOT IN (SELECT term FROM vocab)")
_LED_SQL = ("SELECT t.rowid, t.last FROM titles t JOIN units u ON u.rowid = t.rowid JOIN chapters c "
            "ON c.ruleset = u.ruleset AND c.chapter = u.chapter WHERE t.key > ? AND t.key < ? AND c.kind != 'supplement'")
_KEYS_SQL = "SELECT DISTINCT key FROM synonyms"
_FACE_SQL = ("SELECT u.rowid, r.cells, t.title, t.dice, r.low, r.high FROM table_rows r JOIN rule_tables t "
             "ON t.id = r.table_id JOIN units u ON u.id = r.unit_id WHERE r.low <= ? AND r.high >= ? "
             "AND (? IS NULL OR t.ruleset = ?) ORDER BY t.id, r.row_index")

_KEYED_TABLES_SQL = ("SELECT t.id, t.ruleset, t.title, t.columns FROM rule_tables t WHERE t.dice IS NULL AND EXISTS "
                     "(SELECT 1 FROM table_rows r JOIN units u ON u.id = r.unit_id JOIN table_keys k ON k.rowid = u.rowid "
                     "WHERE r.table_id = t.id) ORDER BY t.id")
_KEY_ROWS_SQL = ("SELECT u.rowid, r.cells, k.low <= ? AND k.high >= ? FROM table_rows r JOIN units u ON u.id = r.unit_id "
                 "JOIN table_keys k ON k.rowid = u.rowid WHERE r.table_id = ? ORDER BY r.row_index LIMIT ?")


class SearchData:
    """Search data of one database, read from the tables the build wrote and kept on its handle.

    Holds the rulesets, the number of units, the synonym entries and defined terms looked up so far,
    the vocabulary (read on first need), and the compiled queries (a prepared-statement cache, never
    results).
    """

    def __init__(self, conn: sqlite3.Connection):
        self.rulesets: tuple[str, ...] = tuple(
            r[0] for r in rows(conn, "SELECT DISTINCT ruleset FROM chapters ORDER BY ruleset"))
        self.units: int = rows(conn, "SELECT max(rowid) FROM search_units")[0][0] or 1
        #: ``{rowid: (ruleset, kind, title, number, lead, ascii, items, intro)}``: what ranking reads of each unit
        #: besides bm25 (so the ``MATCH`` statement needs no join), read for the units the searches
        #: meet (:data:`META_SQL`), not for every unit at once: a large corpus opens fast.
        self.meta: dict[int, tuple] = {}
        #: ``{ruleset: ((first rowid, last rowid), ...)}``: the runs of rowids of each ruleset's units.
        self.runs: dict[str, tuple[tuple[int, int], ...]] = _stored_runs(conn)
        #: ``{rowid: (rowid, id, ruleset, breadcrumb, text, kind, section, body, heading, trail, lead_in,
        #: words)}``: the
        #: units' text read so far for hits (the database's own rows; never search results).
        self.hit_rows: dict[int, tuple] = {}
        self._synonyms: dict[tuple[int, str], list[tuple[str, tuple[str, ...], float]]] = {}
        self._labels: dict[str, list[tuple[int, int]]] = {}
        self._vocab: dict[int, list[tuple[str, int]]] | None = None
        self.compiled: dict[tuple[str, str | None], Compiled] = {}
        self._keyed_tables: list[tuple[str, str, str, str]] | None = None

    def covering(self, conn: sqlite3.Connection, face: int, ruleset: str | None) -> list[tuple[str, str, str]]:
        """``[(range as written, table title, its die)]``: the rows of rollable tables whose range of faces
        holds ``face`` (a range, not a single face), of ``ruleset`` (None: every ruleset), at most
        ``MAX_COVERING``: a GM's "I rolled 96 on the trauma table" meets the row "86–99"."""
        return [(written, title, dice) for _r, written, title, dice, span in self.face_rows(conn, face, ruleset)
                if span][:MAX_COVERING]

    def short_forms(self, conn: sqlite3.Connection, words) -> dict[str, str]:
        """``{short form: its word}`` for those of ``words`` that are a GM's short form of a word (the
        ``synonyms`` table's scope ``>``: "dmg" → damage)."""
        found = self.synonyms(conn, {(0, w) for w in words}) if words else {}
        return {k: ph[0] for (_c, k), entries in found.items() for scope, ph, _w in entries
                if scope == ">" and k in words}

    def face_rows(self, conn: sqlite3.Connection, face: int, ruleset: str | None) -> list[tuple]:
        """``[(rowid, first cell as written, table title, its die, a range?)]``: the rows of rollable
        tables whose faces hold ``face``, of ``ruleset`` (None: every ruleset), in table and row order."""
        import json

        return [(rowid, json.loads(cells)[0], title, dice, low < high)
                for rowid, cells, title, dice, low, high in rows(conn, _FACE_SQL, (face, face, ruleset, ruleset))]

    def keyed_tables(self, conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
        """``[(table id, ruleset, title, first column's name)]``: the tables read by a number
        (``table_keys``), read once per handle."""
        import json

        if self._keyed_tables is None:
            self._keyed_tables = [(tid, rs, title, (json.loads(columns) or [""])[0])
                                  for tid, rs, title, columns in rows(conn, _KEYED_TABLES_SQL)]
        return self._keyed_tables

    def keyed_rows(self, conn: sqlite3.Connection, table_id: str, number: int) -> list[tuple[int, str, bool]]:
        """``[(rowid, first cell as written, covers number?)]``: the first ``MAX_KEYED_ROWS`` rows of the
        table read by a number ``table_id``, in order ("STR+SIZ" 71–80 covers 74)."""
        import json

        return [(rowid, (json.loads(cells) or [""])[0], bool(covers))
                for rowid, cells, covers in rows(conn, _KEY_ROWS_SQL, (number, number, table_id, MAX_KEYED_ROWS))]

    def words(self, conn: sqlite3.Connection, words) -> dict[str, tuple[str, int]]:
        """``{word: (stem, units holding the stem)}`` for the words the database knows."""
        return dict(_in(conn, "SELECT word, stem, docs FROM words WHERE word IN ({})", words,
                        lambda r: (r[0], (r[1], r[2]))))

    def forms(self, conn: sqlite3.Connection, stems) -> dict[str, list[str]]:
        """``{stem: [its words in the rules]}``: what a snippet marks for a stem."""
        out: dict[str, list[str]] = {}
        for word, stem in _in(conn, "SELECT word, stem FROM words WHERE stem IN ({}) AND docs > 0", stems,
                              lambda r: r):
            out.setdefault(stem, []).append(word)
        return out

    def stem_words(self, conn: sqlite3.Connection, stems) -> list[tuple[str, int]]:
        """Every vocabulary word of these stems, the synonym data's own too, with how many units hold it."""
        return _in(conn, "SELECT word, docs FROM words WHERE stem IN ({})", stems, lambda r: (r[0], r[1]))

    def synonyms(self, conn: sqlite3.Connection,
                 keys) -> dict[tuple[int, str], list[tuple[str, tuple[str, ...], float]]]:
        """``{(content, key): [(scope, phrases, weight), ...]}`` for these stem keys (read from the
        ``synonyms`` table once and kept; the keys it lacks map to ``[]``)."""
        if len(self._synonyms) > SYNONYM_CACHE:  # a long session's distinct words: start again
            self._synonyms.clear()
        wanted = {k for k in keys if k not in self._synonyms}
        if wanted:
            for k in wanted:
                self._synonyms[k] = []
            for scope, content, key, phrases, weight in _in(
                    conn, "SELECT scope, content, key, phrases, weight FROM synonyms WHERE key IN ({}) "
                          "ORDER BY scope", {k for _c, k in wanted}, tuple):
                if (content, key) in wanted:
                    self._synonyms[(content, key)].append((scope, tuple(phrases.split("\t")), weight))
        return self._synonyms

    def defining(self, conn: sqlite3.Connection, stems: tuple[str, ...], weak: bool) -> frozenset[int]:
        """Units defining exactly the term ``stems`` (``Evade: …`` for ``evad``): the chapters'
        definitions and table rows, and with ``weak`` the supplement's for terms no chapter defines."""
        if not stems:
            return frozenset()
        key = " ".join(sorted(set(stems)))
        found = self._labels.get(key)
        if found is None:
            found = self._labels[key] = rows(conn, "SELECT rowid, strong FROM labels WHERE key = ?", (key,))
        return frozenset(r for r, strong in found if strong or weak)

    def sections(self, conn: sqlite3.Connection, names: list[str]) -> tuple[tuple[int, int], ...]:
        """Rowid runs (heading unit, last unit) of the sections titled exactly one of ``names``
        (folded words: ``"fighting on"``)."""
        return tuple(sorted(_in(conn, "SELECT rowid, last FROM titles WHERE key IN ({})", names, tuple)))

    def led_sections(self, conn: sqlite3.Connection, word: str) -> tuple[tuple[int, int], ...]:
        """Rowid runs of the chapters' (not the supplement's) sections whose title of two or more words
        begins with the folded ``word`` ("firearms": Firearms change the economy)."""
        return tuple(sorted(rows(conn, _LED_SQL, (word + " ", word + " \U0010ffff"))))

    def vocab(self, conn: sqlite3.Connection) -> dict[int, list[tuple[str, int]]]:
        """The rules' unstemmed words by length, with how many units hold each, and the synonym data's
        words the rules lack: with a synonym of their own (0: a GM's own word, "squares", that a synonym
        turns into the book's), or only in a longer phrase that has one (-1: "opportunity" of "attack of
        opportunity"), for spelling correction and "did you mean"."""
        if self._vocab is None:
            # a synonym word counts when its stem is a word of a synonym key: a correction to it leads
            # somewhere, alone ("squres": squares) or with its neighbours ("attack of oportunity")
            keys = [key for (key,) in rows(conn, _KEYS_SQL)]
            alone = {key for key in keys if " " not in key}
            keyed = {stem for key in keys for stem in key.split()}
            # held by no unit: 0 for a word with a synonym of its own, -1 for a word of a longer key only
            found = rows(conn, _VOCAB_SQL) + [(w, 0 if stem in alone else -1)
                                              for w, stem in rows(conn, _SYNONYM_WORDS_SQL) if stem in keyed]
            by_len: dict[int, list[tuple[str, int]]] = {}
            for w, docs in sorted(found):
                by_len.setdefault(len(w), []).append((w, docs))
            self._vocab = by_len
        return self._vocab

    def holds(self, conn: sqlite3.Connection, word: str, ruleset: str) -> bool:
        """Whether some unit of ``ruleset`` holds ``word`` as written (the unstemmed index)."""
        return bool(rows(conn, "SELECT 1 FROM units_plain_fts f JOIN units u ON u.rowid = f.rowid "
                               "WHERE units_plain_fts MATCH ? AND u.ruleset = ? LIMIT 1", (_quote(word), ruleset)))

    def near_words(self, conn: sqlite3.Connection, word: str, spread: int) -> list[tuple[str, int]]:
        """Vocabulary words (and how many units hold them) of about the same length (±``spread``)."""
        by_len = self.vocab(conn)
        return [w for n in range(len(word) - spread, len(word) + spread + 1) for w in by_len.get(n, ())]


def rows(conn: sqlite3.Connection, sql: str, params=()) -> list[tuple]:
    """Every row of ``sql`` as plain tuples (whatever the connection's row factory)."""
    cur = conn.cursor()
    cur.row_factory = None
    return cur.execute(sql, params).fetchall()


def _in(conn: sqlite3.Connection, sql: str, values, row):
    """Rows of ``sql`` with its ``IN ({})`` bound to ``values`` (in chunks), each through ``row``."""
    listed = sorted(set(values))
    for k in range(0, len(listed), 500):
        chunk = listed[k:k + 500]
        yield from map(row, rows(conn, sql.format(",".join("?" * len(chunk))), chunk))


class _Compiler:
    """Turns one query into groups of FTS5 alternatives, reading words and synonyms from the database."""

    def __init__(self, conn: sqlite3.Connection, data: SearchData, ruleset: str | None, definition: bool):
        self.conn, self.data, self.ruleset, self.definition = conn, data, ruleset, definition
        self.known: dict[str, tuple[str, int]] = {}
        self.fixes: dict[str, str] = {}  # spelling corrections made
        self._corrected: dict[str, str | None] = {}  # each word's correction, looked for once a query
        self.dice = False  # "die" is the one rolled ("what die", "a die"): not dying (variants)
        self.death = False  # "dies", "I die": the death, so no match in a "tier die" (alt)
        self.said: set[str] = set()  # the stems of the question's words, typed and corrected (_names)

    def correction(self, word: str) -> str | None:
        """:func:`_correct` of ``word``, looked for once per query (phrases and single words alike)."""
        if word not in self._corrected:
            fix = _correct(word, self)
            # a GM's short form is read as its word, corrected or not ("dmgs": dmg, damage)
            short = self.data.short_forms(self.conn, [fix]).get(fix) if fix else None
            if short:
                self.learn([short])
            self._corrected[word] = short or fix
        return self._corrected[word]

    def learn(self, words) -> None:
        missing = {w for w in words if w not in self.known}
        if missing:
            self.known.update(self.data.words(self.conn, missing))

    def stem(self, word: str) -> str:
        got = self.known.get(word)
        return got[0] if got else word

    def idf(self, words) -> float:
        """idf of the rarest of ``words`` the rules hold (of a word they lack when none is held)."""
        n = self.data.units
        docs = [d for w in words if (d := self.known.get(w, ("", 0))[1])] or [0]
        return math.log(1.0 + n / (1.0 + min(docs)))

    def alt(self, words: list[str], *, prefix: bool = False, scope: str | None = None, note: str = "",
            factor: float = 1.0) -> Alt | None:
        """An alternative: the folded ``words`` as one phrase, maybe a prefix; ``&`` among them splits
        it into phrases that must all be in the unit."""
        words = [w for w in words if w == "&" or any(c.isalnum() for c in w)]
        phrases = [p.split() for p in " ".join(words).split("&") if p.strip()]
        if not phrases:
            return None
        flat = tuple(w for p in phrases for w in p)
        if len(phrases) > 1:
            fts = "(" + " AND ".join(_quote(" ".join(p)) for p in phrases) + ")"
        else:
            fts = _quote(" ".join(flat)) + ("*" if prefix else "")
        stems = tuple(self.stem(w) for w in (flat[:-1] if prefix else flat))
        if self.death and stems == ("die",):
            fts = f'({fts} NOT "tier die")'  # the stem "die" is the die rolled too
        return Alt(fts, stems, scope, note, flat, flat[-1] if prefix else None, factor)

    def group(self, alts: list[Alt | None], weight_words: list[str], scale: float = 1.0,
              keyed: bool = False) -> Group | None:
        """A group from its alternatives (typed first), one :class:`Part` per ``MATCH`` to run; a group
        of filler words (or the selected ruleset's own name: "in mastery combat") weighs ``FILLER_WEIGHT``
        of its idf, unless ``keyed`` (a GM phrase of two or more
        words that the synonym data names: "players or monsters" is not two cast words but a rule)."""
        seen: dict[tuple[str, str | None], Alt] = {}
        for a in alts:
            if a is not None:
                seen.setdefault((a.fts, a.scope), a)
        if not seen:
            return None
        buckets: dict[tuple[float, str], list[Alt]] = {}
        for a in seen.values():
            buckets.setdefault((-a.factor, a.scope or ""), []).append(a)
        parts = []
        for (factor, scope), members in sorted(buckets.items()):
            defining: frozenset[int] = frozenset()
            for a in members:
                defining |= self.data.defining(self.conn, a.stems, self.definition)
            parts.append(Part(" OR ".join(a.fts for a in members), scope or None, -factor, tuple(members), defining,
                              self.data.sections(self.conn, [" ".join(a.words) for a in members if not a.prefix])))
        # a synonym's words weigh as the GM's; a correction weighs as the word corrected to (the
        # caller's ``weight_words``), not as its rarer forms ("succesful" is "successful", not "successfully")
        words = list(weight_words) + [w for a in seen.values() if a.note and not a.note.startswith("spelling: ")
                                      for w in a.words]
        weight = self.idf(words) ** IDF_POWER
        if weight_words and not keyed and all(w in FILLER or w == self.ruleset for w in weight_words):
            weight *= FILLER_WEIGHT
        return Group(tuple(parts), weight * scale)

    def synonym_alts(self, key: str, content: int, typed: str) -> tuple[list[Alt | None], float]:
        """The book phrases of the synonym entry ``key`` that apply to the selected ruleset, and the
        entry's weight."""
        out: list[Alt | None] = []
        weight = 1.0
        if self.dice and key == "die":  # the die rolled ("on the die"): not dying, nor death
            return out, weight
        entries = [e for e in self.data.synonyms(self.conn, [(content, key)])[(content, key)]
                   if e[0] not in _WORD_SCOPES and (not e[0] or self.ruleset is None or e[0] == self.ruleset)]
        common = {ph for scope, phrases, _w in entries if not scope for ph in phrases}
        own = self.ruleset is not None and any(scope for scope, _p, _w in entries)
        # the selected ruleset's own phrases first (a phrase counts as its own even where common.json
        # has it too); with no ruleset, a ruleset's copy of a common phrase adds nothing
        for scope, phrases, w in sorted(entries, key=lambda e: not e[0]) if own else entries:
            where = scope if scope and self.ruleset is None else None
            factor = COMMON_FACTOR if own and not scope else SYNONYM_FACTOR
            if where is not None:
                phrases = tuple(ph for ph in phrases if ph not in common)
            self.learn(w for ph in phrases for w in ph.split())
            out += [self.alt(ph.split(), scope=where, note=f"synonym: {typed} → {ph}", factor=factor)
                    for ph in phrases]
            weight = min(weight, w)
        return out, weight

    def variants(self, key: str) -> list[Alt | None]:
        """The rules' words the stemmer keeps apart from this one ("successfully" for "successful");
        none for the die rolled (``dice``): "dying" is another word."""
        if self.dice and key == "die":
            return []
        found = [ph for scope, phrases, _w in self.data.synonyms(self.conn, [(0, key)])[(0, key)] if scope == "="
                 for ph in phrases]
        self.learn(found)
        return [self.alt([w]) for w in found]


def _tokens(text: str) -> tuple[list[list[str]], list[tuple[str, list[str], bool]]]:
    """Quoted phrases (their words) and the other tokens ``(as typed, folded words, prefix)``;
    a negation's words are ``["not"]``."""
    phrases: list[list[str]] = []

    def take(match: re.Match) -> str:
        words = [p for w in query_tokens(match.group(1)) for p in _JOIN.split(fold(w.rstrip("*"))) if p]
        if words:
            phrases.append(words)
        return " "

    rest = _PHRASE.sub(take, text)
    toks = []
    for raw in query_tokens(rest)[:MAX_WORDS]:
        word = raw.rstrip("*")
        low = fold(word).replace("’", "'")
        if low.endswith("'s") and len(low) > 3 and low[:-2] not in _IS_BEFORE:
            low = low[:-2]  # "AP's", "parry's": the word itself ("what's" is "what is")
        parts = ["not"] if low in NEGATIONS else _unspanned([p for p in _JOIN.split(low) if p])
        if parts == [low] and toks and len(toks[-1][1]) == 1 and _said_by(toks[-1][1][0], low):
            continue  # "my character": the player, as "I" is; "crit range": the faces, no distance
        if (parts == [low] and low in _BEYOND and len(toks) > 1 and toks[-1][1] == ["or"]
                and toks[-2][1][-1].isdecimal()):
            continue  # "97 or higher": the faces from 97 up, no rule about being higher
        if parts:
            toks.append((word, parts, raw.endswith("*")))
    return phrases[:MAX_TERMS], toks


def _unspanned(parts: list[str]) -> list[str]:
    """The words of one hyphenated token read as they are apart: "crit-range" is "crit range" (the
    faces, no distance: "range" dropped), "my-character" is "my"."""
    return [w for k, w in enumerate(parts) if not (k and _said_by(parts[k - 1], w))]


def _said_by(before: str, word: str) -> bool:
    """Whether ``word`` says nothing after ``before``: "my character" (the player, as "I" is), "crit
    range" (the faces of the roll, no distance)."""
    return (word in _SELF and before in _OWN) or (word in _SPAN and before in _SPAN_OF)


def _spans(c: _Compiler, toks, used: list[bool], pending: list, fixed: dict[int, str],
           walls: frozenset[int] = frozenset()) -> None:
    """GM phrases with a synonym, longest first; at each length the phrase as typed, then without its
    question words ("order of the phases" meets "order of phases"), then without its filler too
    ("don't even try to block" meets "not block"); a word belongs to one synonym, and no phrase reaches
    across a token of ``walls`` (the words of "instead of": "move instead of attack" is no "move attack").
    ``toks`` hold the corrections of misspelt words (``fixed``: token index -> correction), and the GM's
    own words of a phrase holding one count as a spelling correction and say so.
    Every key the query could hold is read from the database in one statement first."""
    folded = [" ".join(p) for _, p, _ in toks]
    stemmed = [" ".join(c.stem(w) for w in p) for _, p, _ in toks]
    every = list(range(len(toks)))
    content = [i for i in every if not _stop(folded[i])]
    # and without the filler a GM puts inside a phrase ("don't even try to block": not block)
    gist = [i for i in content if folded[i] == "not" or folded[i] not in FILLER]
    ways = ((0, every), (1, content)) + (((1, gist),) if len(gist) < len(content) else ())
    c.data.synonyms(c.conn, {(which, " ".join(stemmed[i] for i in positions[k:k + n]))
                             for which, positions in ways
                             for n in range(1, 6) for k in range(len(positions) - n + 1)})
    for n in range(min(5, len(toks)), 0, -1):
        found = []
        for which, positions in ways:
            for k in range(0, len(positions) - n + 1):
                span = positions[k:k + n]
                if any(used[i] or toks[i][2] for i in span) or any(span[0] < w < span[-1] for w in walls):
                    continue
                typed = " ".join(toks[i][0] for i in range(span[0], span[-1] + 1))
                syn, scale = c.synonym_alts(" ".join(stemmed[i] for i in span), which, typed)
                if any(syn):
                    found.append((which, -sum(not _stop(folded[i]) for i in span), span, syn, scale))
        # of two phrases as typed sharing a word, the one with more words that mean something wins
        # ("want to hit back": hit back, a counterattack, not "to hit"); the first typed among equals
        found.sort(key=lambda f: f[:2])
        for _way, _meant, span, syn, scale in found:
            if any(used[i] for i in span):
                continue
            g = _phrase_group(c, toks, span, syn, scale, fixed, folded)
            if g:
                for i in range(span[0], span[-1] + 1):
                    used[i] = True
                pending.append((span[0], g))


def _idiom(c: _Compiler, words: list[str], meant: list[str], syn: list) -> bool:
    """Whether a GM phrase with a synonym is an idiom whose one meaningful word means something else
    in it: a filler verb or particle, or "how", around that word ("got the drop on"; "how long": a
    duration, no length), and no alternative of the synonym holds the word (an ambush, not a dropped item)."""
    if len(meant) != 1 or not any(w in FILLER or w == "how" for w in words if w != meant[0]):
        return False
    return c.stem(meant[0]) not in {s for a in syn if a is not None for s in a.stems}


def _phrase_group(c: _Compiler, toks, span: list[int], syn: list, scale: float, fixed: dict[int, str],
                  folded: list[str]) -> Group | None:
    """The group of a GM phrase with a synonym: the GM's own words, their other forms, the synonym's
    alternatives and the table rows holding a face typed inside it."""
    words = [w for i in span for w in toks[i][1]]
    meant = [w for w in words if not _stop(w)]
    # the GM's own words: the one that means something ("for free": free), or all of them
    # (in any order) anywhere in the unit
    fixes = [f"{toks[i][0]} → {fixed[i]}" for i in range(span[0], span[-1] + 1) if i in fixed]
    how = {"note": f"spelling: {', '.join(fixes)}", "factor": SPELLING_FACTOR} if fixes else {}
    if _idiom(c, words, meant, syn):  # "got the drop on": no drop of anything
        how = {**how, "factor": how.get("factor", 1.0) * IDIOM_FACTOR}
    own = (c.alt(meant, **how) if len(meant) == 1 else c.alt(" & ".join(meant).split(), **how) if meant
           else c.alt(words, **how))
    # a single word's other spellings and forms the rules hold ("armor": "armour"), as typed
    same = c.variants(c.stem(meant[0])) if len(meant) == 1 and not fixes else []
    typed_stems = {" ".join(c.stem(w) for w in words), " ".join(c.stem(w) for w in meant)}
    syn = [a for a in syn if a is not None and " ".join(a.stems) not in typed_stems]
    # a face inside the phrase ("rolled 96") still finds the table rows holding it, below
    # what the phrase itself means ("nat 1" is Mythras's 01–05 rule before a row holding 1)
    syn += [a for i in span for a in _covering(c, toks[i][0], folded[i], COMMON_FACTOR)]
    return c.group([own, *same, *syn], [w for w in words if not _stop(w)] or words, scale, keyed=len(meant) > 1)


def _misspelt(c: _Compiler, toks) -> dict[int, str]:
    """``{token index: correction}`` for the words the rules and the synonym data never use (the
    first ``MAX_CORRECTIONS`` of them): what the GM phrases are looked up with ("critcal hit" meets
    "critical hit"). A word no phrase takes gets its own group in :func:`_singles`."""
    out: dict[int, str] = {}
    tried: dict[str, str | None] = {}
    for i, (_tok, parts, prefix) in enumerate(toks):
        low = parts[0] if len(parts) == 1 else ""
        if prefix or not _correctable(low, c):
            continue
        fix = _fix(c, low, tried)
        if fix:
            out[i] = fix
    return out


def _fix(c: _Compiler, word: str, tried: dict[str, str | None]) -> str | None:
    """The correction of ``word`` (None: none), each distinct word looked for once (``tried``). At most
    ``MAX_CORRECTIONS`` words that are not common English words are looked for; a common word is looked
    for among its own forms only (by stem, one look-up), so it never uses up the others' turns."""
    if word not in tried:
        if not common_english(word) and sum(not common_english(w) for w in tried) >= MAX_CORRECTIONS:
            return None
        tried[word] = c.correction(word)
    return tried[word]


def _correctable(word: str, c: _Compiler) -> bool:
    """Whether ``word`` may be spelling-corrected: a plain word of 4+ ASCII letters that neither the
    rules nor the synonym data use, and no filler ("tries" is no misspelt "ties")."""
    return (word not in c.known and word not in FILLER and 4 <= len(word) <= MAX_CORRECTED_LETTERS and word.isascii()
            and word.isalpha())


def _covering(c: _Compiler, typed: str, word: str, factor: float = 1.0) -> list[Alt | None]:
    """For a number typed (decimal digits of any script, at most 6), the rows of rollable tables whose
    range of faces holds it, each as the range written ("86–99"), noted "roll: 96 is in 86–99 (Trauma
    Table)"; before them, for a face written otherwise than the rules write it ("07", "00" on percentile
    dice), the face as they do ("7", "100"); else nothing."""
    if not (word.isdecimal() and len(word) <= 6):
        return []
    face = int(word) or (10 ** len(word) if len(word) > 1 else 0)  # percentile dice: "00" is 100
    # "07" (or ٠٧) is the face 7, as the rules write it
    plain = [c.alt([str(face)], note=f"roll: {typed} is {face}", factor=factor)] if str(face) != word else []
    # a row only of a table the question names, or of any when it speaks of a roll or is only numbers
    # ("96"): the "4" of "failed startle by 4" is no face of the Trauma Table
    said = c.said
    bare = all(_stop(w) or w.isdecimal() for w in said)
    return plain + [c.alt(re.findall(r"\d+", written), note=f"roll: {typed} is in {written} ({title})", factor=factor)
                    for written, title, dice in c.data.covering(c.conn, face, c.ruleset)
                    if bare or "roll" in said or _names(c, title, dice)]


def _title_words(title: str) -> list[str]:
    """The words naming a table: its title's but "table" and an aside in brackets ("Hit location
    (humanoid)": hit, location)."""
    return [w for w in re.findall(r"[a-z0-9]+", fold(re.sub(r"\(.*?\)", "", title)).lower()) if w != "table"]


def _names(c: _Compiler, title: str, dice: str) -> bool:
    """Whether the question names the rollable table titled ``title``: every word of the title but
    "table" and an aside in brackets ("trauma", "hit location"), or its die ("d100")."""
    named = set(_title_words(title))
    c.learn(named)
    return {c.stem(w) for w in named} <= c.said or bool(dice) and dice.lower().lstrip("1") in {w.lstrip("1") for w in c.said}


def _singles(c: _Compiler, toks, used: list[bool]) -> list[tuple[int, Group]]:
    """A group for each word no synonym took, with a spelling correction for a word the rules lack."""
    out: list[tuple[int, Group]] = []
    tried: dict[str, str | None] = {}  # each distinct word tried once (_fix)
    for i, (tok, parts, prefix) in enumerate(toks):
        low = " ".join(parts)
        if used[i] or (not prefix and _stop(low)):
            continue
        alts = [c.alt(parts, prefix=prefix)]
        weight_words = parts
        if not prefix and len(parts) == 1:
            forms = [v for v in c.variants(c.stem(low)) if v is not None]
            alts += forms
            alts += _covering(c, tok, low)
            # a word weighs as its form the rules use most ("threw": throw), never as a rarer one
            held = [(c.known.get(w, ("", 0))[1], w) for v in forms if len(v.words) == 1 for w in v.words]
            if held and max(held)[0] > c.known.get(low, ("", 0))[1]:
                weight_words = [max(held)[1]]
        if not prefix and len(parts) == 1 and _correctable(low, c):
            fix = _fix(c, low, tried)
            if fix:
                c.fixes[low] = fix
                alts.append(c.alt([fix], note=f"spelling: {tok} → {fix}", factor=SPELLING_FACTOR))
                alts += [c.alt(list(v.words), note=f"spelling: {tok} → {fix}", factor=SPELLING_FACTOR)
                         for v in c.variants(c.stem(fix)) if v is not None]  # "succesful": successfully too
                weight_words = [fix]
        g = c.group(alts, weight_words)
        if g:
            out.append((i, g))
    return out


def _turns(toks) -> list[int]:
    """The token indices of the words saying "instead of" or "rather than" (each pair's two words),
    first to last."""
    words = [p[-1] if len(p) == 1 else "" for _t, p, _x in toks]
    pairs = [i for i in range(1, len(words)) if (words[i - 1], words[i]) in _CONTRAST]
    return sorted({j for i in pairs for j in (i - 1, i)})


def _contrasted(turns: list[int], found: list[tuple[int, Group]]) -> list[Group]:
    """The groups, those after the first "instead of" or "rather than" (``turns``: :func:`_turns`)
    weighing ``CONTRAST_WEIGHT``: "dodge instead of parry" asks about dodging; parrying is what the
    GM turns away from."""
    return [Group(g.parts, g.weight * CONTRAST_WEIGHT, g.bonus) if turns and i > turns[0] else g
            for i, g in found]


def _bigrams(c: _Compiler, toks, skip: frozenset[int] = frozenset()) -> Group | None:
    """One group of the query's adjacent word pairs as phrases ("hit location"; in a query of up to
    three words, a pair with one question word too: "fighting on"): a unit holding the GM's words
    side by side, or defining the pair, counts ``PHRASE_WEIGHT`` more. No pair holds a token of
    ``skip`` (the words of "instead of", "rather than")."""
    alts, weights = [], []
    short = len(toks) <= 3
    for i in range(len(toks) - 1):
        (_a, pa, xa), (_b, pb, xb) = toks[i], toks[i + 1]
        stops = _stop(" ".join(pa)) + _stop(" ".join(pb))
        if xa or xb or stops > (1 if short else 0) or "not" in pa + pb or i in skip or i + 1 in skip:
            continue
        alts.append(c.alt(pa + pb))
        weights.append(c.idf(pa + pb))
    alts = [a for a in alts if a is not None][:MAX_BIGRAMS]
    if not alts:
        return None
    defining: frozenset[int] = frozenset()
    for a in alts:
        defining |= c.data.defining(c.conn, a.stems, c.definition)
    part = Part(" OR ".join(dict.fromkeys(a.fts for a in alts)), None, 1.0, tuple(alts), defining)
    return Group((part,), PHRASE_WEIGHT * max(weights) ** IDF_POWER, bonus=True)


def _budget(groups: list[Group]) -> list[Group]:
    """The groups cut to ``MAX_TERMS`` alternatives in all (the FTS expression stays bounded)."""
    kept, budget = [], MAX_TERMS
    for g in groups:
        parts = []
        for p in g.parts:
            if budget <= 0:
                break
            alts = p.alts[:budget]
            budget -= len(alts)
            parts.append(p if len(alts) == len(p.alts) else
                         Part(" OR ".join(a.fts for a in alts), p.scope, p.factor, alts, p.defining, p.sections))
        if parts:
            kept.append(Group(tuple(parts), g.weight, g.bonus))
    return kept


def compile_query_text(query: str, conn: sqlite3.Connection, data: SearchData, ruleset: str | None) -> Compiled:
    """Groups of alternatives for a query, the notes of every synonym/correction used, its intents."""
    text = normalize((query or "")[:20000]).translate(_QUOTES)
    percentile = [f"short form: {m.group(0)} → {m.group(1)}d100" for m in _PERCENTILE.finditer(text)]
    phrases, toks = _tokens(_PERCENTILE.sub(r"\1d100", text))
    toks, short = _unabbreviated(conn, data, toks)
    short = list(dict.fromkeys(percentile)) + short
    low = " ".join(w for _, p, _ in toks for w in p)
    c = _Compiler(conn, data, ruleset, bool(_DEFINITION.search(low)))
    c.dice = any(p == ["die"] and i and toks[i - 1][1][-1] in _DIE_NOUN for i, (_t, p, _x) in enumerate(toks))
    c.death = not c.dice and any(p in (["dies"], ["died"]) or (p == ["die"] and i and toks[i - 1][1][-1] in _DIE_VERB)
                                 for i, (_t, p, _x) in enumerate(toks))
    c.learn({w for p in phrases for w in p} | {w for _, p, _ in toks for w in p})
    groups = [g for g in (c.group([c.alt(p)], p) for p in phrases) if g]
    # the words of "instead of", "rather than" say which way the question turns, no topic: never searched
    turns = _turns(toks)
    used = [i in turns for i in range(len(toks))]
    pending: list[tuple[int, Group]] = []
    # a misspelt word may belong to a GM phrase ("critcal hit"): the phrases are looked up with it corrected
    fixed = _misspelt(c, toks)
    mended = [(t, fixed[i].split() if i in fixed else p, x) for i, (t, p, x) in enumerate(toks)]
    c.said = {c.stem(w) for _, p, _ in toks + mended for w in p}  # the words as typed and as corrected
    _spans(c, mended, used, pending, fixed, frozenset(turns))
    singles = _singles(c, toks, used)
    if not groups and not pending and not singles:
        # Only question words (e.g. "AND", "the"): search them as typed rather than nothing.
        singles = [(i, g) for i, (_t, parts, prefix) in enumerate(toks)
                   if (g := c.group([c.alt(parts, prefix=prefix)], parts))]
    kept = _budget(groups + _contrasted(turns, sorted(pending + singles, key=lambda p: p[0])))
    pairs = _bigrams(c, mended, frozenset(turns)) if len(toks) > 1 and kept else None
    notes = short + [a.note for g in kept for p in g.parts for a in p.alts if a.note]
    words = [c.fixes.get(w, w) for w in [w for p in phrases for w in p] + [w for _, p, _ in toks for w in p]]
    meant = " ".join(w for w in words if not (_stop(w) or w in FILLER or w in _NAMING))
    sections = data.sections(conn, [" ".join(words)]) if words else ()
    if not sections and len(meant.split()) == 1:
        sections = data.led_sections(conn, meant)  # "firearms": Firearms change the economy
    lifted = data.sections(conn, [meant]) if meant else ()
    quantity = bool(_QUANTITY.search(low))
    # what a number counts is the word after it: the GM's words, and the first word of each synonym
    # of a thing they named ("how many AP": "2 Action Points"; not of "how long is a")
    content = set(meant.split())
    things = {c.stem(w) for w in content} | {a.stems[0] for g in kept for p in g.parts for a in p.alts
                                             if a.stems and a.note.startswith("synonym: ")
                                             and set(a.note[9:].split(" → ")[0].lower().split()) <= content}
    counted = frozenset(_in(conn, "SELECT rowid FROM counted WHERE stem IN ({})", things,
                            lambda r: r[0])) if quantity else frozenset()
    quoted = tuple(i for i, g in enumerate(kept[:len(groups)]) if len(g.parts) == 1 and len(g.parts[0].alts) == 1
                   and len(g.parts[0].alts[0].words) > 1)
    faces, rolled = _faces(c, mended)
    keyed, unkeyed, read = _keyed(c, mended, _signed(text))
    return Compiled(tuple(kept) + ((pairs,) if pairs else ()), tuple(dict.fromkeys(notes + rolled + read)),
                    quantity, c.definition, sections, lifted, counted, quoted, faces, keyed, unkeyed)


#: Scopes of the ``synonyms`` table that hold no synonym: a word's other forms (``=``) and a GM's short
#: forms of words (``>``).
_WORD_SCOPES = frozenset({"=", ">"})
#: A rollable table's rows a question reaches by a number (at most this many numbers a question).
MAX_FACES = 4
#: A number written as a word ("rolled sixty on trauma").
_NUMBER_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {
    w: 10 * n for n, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), 3)} | {"hundred": 100}


def _numbers(words: list[str]) -> list[tuple[int, str]]:
    """The numbers among ``words`` (at most ``MAX_FACES``), each with the words saying it ("" for digits):
    digits (three at most), or number words, a tens word and a unit word making one number ("ninety
    seven", "ninety-six": 96), "one hundred" 100."""
    out: list[tuple[int, str]] = []
    k = 0
    while k < len(words) and len(out) < MAX_FACES:
        w, after = words[k], words[k + 1] if k + 1 < len(words) else ""
        if w.isdecimal() and len(w) <= 3:
            out.append((int(w), ""))
        elif w in _NUMBER_WORDS:
            n, said = _NUMBER_WORDS[w], w
            if after == "hundred" and n in (0, 1):
                n, said, k = 100, f"{w} {after}", k + 1
            elif n >= 20 and n % 10 == 0 and n < 100 and 0 < _NUMBER_WORDS.get(after, 0) < 10:
                n, said, k = n + _NUMBER_WORDS[after], f"{w} {after}", k + 1
            out.append((n, said))
        k += 1
    return out


def _faces(c: _Compiler, toks) -> tuple[frozenset[int], list[str]]:
    """The rows of the rollable tables the question names (every word of the table's title but "table"
    and an aside in brackets, "trauma", "hit location"; or its die, "d100") whose faces hold a number it
    typed: "rolled 25 for trauma" is the Trauma Table's row 24–25, whatever else holds a 25; and a note
    for each number said in words ("roll: sixty is 60, in 60–61 (Trauma Table)")."""
    numbers = _numbers([w for _t, p, _x in toks for w in (p if all(x in _NUMBER_WORDS for x in p) else [" ".join(p)])])
    out, notes = set(), []
    for face, words in numbers:
        for rowid, written, title, dice, _span in c.data.face_rows(c.conn, face, c.ruleset):
            if _names(c, title, dice):
                out.add(rowid)
                if words:
                    notes.append(f"roll: {words} is {face}, in {written} ({title})")
    return frozenset(out), notes


#: A number typed with a sign ("+1 step", "-50"): a modifier, not a value to read a table by.
_SIGNED = re.compile(r"(?<!\w)[+\-−](\d{1,6})(?!\w)")


def _signed(text: str) -> frozenset[int]:
    """The numbers ``text`` types with a sign."""
    return frozenset(int(m) for m in _SIGNED.findall(text))


def _keyed(c: _Compiler, toks, signed: frozenset[int]) -> tuple[dict[int, str], frozenset[int], list[str]]:
    """For each table read by a number (:meth:`SearchData.keyed_tables`) that the question gives a
    number for, right after the name of its first column or of the table itself ("STR+SIZ 74", "damage
    modifier for 28"; not a number typed with a sign, "+1 step"): the rows covering it (each noted,
    "STR+SIZ: 74 is in 71–80 (Damage Modifier)"), and the table's other rows, which are not the
    one asked about (a number past the last row: all of them)."""
    flat = [w for _t, p, _x in toks for w in p]
    numbers = {int(w) for w in flat if w.isdecimal() and len(w) <= 6} - signed
    keyed: dict[int, str] = {}
    unkeyed, notes = set(), []
    if not numbers:
        return keyed, frozenset(), notes
    for table_id, ruleset, title, column in c.data.keyed_tables(c.conn):
        if c.ruleset is not None and ruleset != c.ruleset:
            continue
        named = " ".join(_title_words(title))
        for number in sorted(numbers):
            if not (_given_after(flat, number, column) or _given_after(flat, number, named)):
                continue
            for rowid, written, covers in c.data.keyed_rows(c.conn, table_id, number):
                if covers:
                    keyed[rowid] = f"{column or title}: {number} is in {written} ({title})"
                    notes.append(keyed[rowid])
                else:
                    unkeyed.add(rowid)
    return keyed, frozenset(unkeyed - keyed.keys()), notes


#: Words that may stand between a name and the number given for it ("STR+SIZ of 74", "damage
#: modifier for a 28").
_KEY_JOINS = frozenset({"of", "is", "at", "was", "in", "for", "my", "our", "his", "her", "their", "a", "an", "with"})


def _given_after(flat: list[str], number: int, name: str) -> bool:
    """Whether the question's words give ``number`` right after ``name``'s words, a few joining words
    between at most ("STR+SIZ 74", "STR+SIZ of 74", "tier 2"; "tier" with some other number elsewhere
    is not)."""
    words = re.findall(r"[a-z0-9]+", fold(name).lower())
    if not words:
        return False
    for k in range(len(flat) - len(words) + 1):
        if flat[k:k + len(words)] == words:
            rest = flat[k + len(words):k + len(words) + 4]
            while rest and rest[0] in _KEY_JOINS:
                rest = rest[1:]
            if rest and rest[0].isdecimal() and len(rest[0]) <= 6 and int(rest[0]) == number:
                return True
    return False


def _unabbreviated(conn: sqlite3.Connection, data: SearchData, toks) -> tuple[list, list[str]]:
    """``toks`` with each GM short form of a word read as the word ("dmg": damage; the synonym data's
    scope ``>``), and a note for each ("short form: dmg → damage")."""
    found = data.short_forms(conn, [p[0] for _t, p, prefix in toks if len(p) == 1 and not prefix])
    out, notes = [], []
    for tok, parts, prefix in toks:
        word = found.get(parts[0]) if len(parts) == 1 and not prefix else None
        if word:
            notes.append(f"short form: {tok} → {word}")
        out.append((tok, [word] if word else parts, prefix))
    return out, list(dict.fromkeys(notes))


def _distance(a: str, b: str, limit: int) -> int:
    """Edits from ``a`` to ``b`` (insert, delete, replace, swap two neighbours), or ``limit + 1``
    once it is clear there are more than ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        prev2, prev = prev, row
    return prev[-1]


def _bare(word: str) -> str:
    """``word`` without an adverb's "ly" ("suddenly": "sudden"); a short word as it is ("only")."""
    return word[:-2] if word.endswith("ly") and len(word) > 5 else word


def _one_word(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are forms of one word: the same Porter stem once an adverb's "ly" is
    taken off ("rifles", "rifle"; "decided", "decides"; "suddenly", "sudden")."""
    return len(set(porter_stems([_bare(a), _bare(b)]).values())) == 1


def _correct(word: str, c: _Compiler) -> str | None:
    """The closest vocabulary word to a word the rules never use (None if nothing is close).

    At most one edit for a word of up to 6 letters, two for a longer one (an edit: a letter added,
    dropped or changed, or two neighbours swapped: "brust" → "burst"), starting with the same letter
    or the same two letters swapped; among equally close words, the one most units hold (a word only a
    longer synonym phrase holds, "opportunity", counts one edit further). A common English word
    (:func:`~ruleslawyer.rulesdb.words.common_english`: "lake", "road", "digging") is corrected only to
    another form of itself (:func:`_one_word`: "rifles" → "rifle", not "lake" → "like"), and any word
    with another form in the vocabulary to that form first ("lunging" → "lunge", not "lurking"); then
    two words run together (:func:`_split`: "freehit" → free hit), which need no edit.
    """
    own = _own_form(word, c)  # "lunging": the rules' "lunge", before "lurking" at the same distance
    if own or common_english(word):
        return own
    split = _split(word, c)  # two words run together need no edit: before any near word ("freehit")
    if split:
        return split
    limit = 1 if len(word) <= 6 else 2
    best: tuple[int, int, str] | None = None
    for w, docs in c.data.near_words(c.conn, word, limit):
        if w[0] != word[0] and not (len(w) > 1 and w[0] == word[1] and w[1] == word[0]):
            continue
        if w in STOPWORDS:
            continue
        d = _distance(word, w, limit)
        # a word of a longer phrase only leads somewhere with its neighbours: one edit further away
        if d <= limit and (best is None or (d + (docs < 0), -docs, w) < best):
            best = (d + (docs < 0), -docs, w)
    if best is None:
        return None
    c.learn([best[2]])
    return best[2]


def _split(word: str, c: _Compiler) -> str | None:
    """Two words written as one, each at least ``MIN_SPLIT`` letters: two rules words the rules hold
    side by side ("flatfooted": flat footed), or a GM phrase of the synonym data ("freehit": free hit);
    the first such split, longest first word first; else None."""
    cuts = [(word[:k], word[k:]) for k in range(len(word) - MIN_SPLIT, MIN_SPLIT - 1, -1)]
    c.learn({w for cut in cuts for w in cut})
    keys = {(0, f"{c.stem(a)} {c.stem(b)}") for a, b in cuts}
    found = c.data.synonyms(c.conn, keys)
    for a, b in cuts:
        if any(e[0] not in _WORD_SCOPES for e in found.get((0, f"{c.stem(a)} {c.stem(b)}"), ())):
            return f"{a} {b}"
        if c.known.get(a, ("", 0))[1] and c.known.get(b, ("", 0))[1] and rows(
                c.conn, "SELECT 1 FROM units_plain_fts WHERE units_plain_fts MATCH ? LIMIT 1", (_quote(f"{a} {b}"),)):
            return f"{a} {b}"
    return None


def _own_form(word: str, c: _Compiler) -> str | None:
    """For a word the rules never use: the vocabulary word that is another form of it (:func:`_one_word`:
    "rifles" → "rifle"), the closest, then one the selected ruleset's units hold ("lunging": Darkmaster's
    "lunge", not Mastery's "lung"), then the one most units hold; else None ("lake" stays a lake)."""
    stems = porter_stems({word, _bare(word)})
    found = sorted((_distance(word, w, 3), -docs, w) for w, docs in c.data.stem_words(c.conn, set(stems.values()))
                   if w != word and w not in STOPWORDS and _one_word(word, w))
    if not found:
        return None
    closest = [w for d, _docs, w in found if d == found[0][0]]
    best = next((w for w in closest if c.ruleset is None or c.data.holds(c.conn, w, c.ruleset)), closest[0])
    c.learn([best])
    return best
