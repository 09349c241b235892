"""Build-time extraction: the search index and what a query reads, glossary terms and cross-references.

:func:`write_extras` runs inside :func:`ruleslawyer.rulesdb.builder.build` after the units are
written. It reads the units back from the database being built and fills (see ``schema.sql``):

- the searched columns of ``units`` — ``heading`` (the section's heading trail, a row's table title
  added) and ``body`` (the text; a table row without its link-only cells), both NFKC — and the two
  full-text indexes built on them, with the bm25 column weights as the stemmed index's ``rank``;
- ``words``: every word of the rules and of the synonym data with its Porter stem (as FTS5's own
  ``porter`` tokenizer stems it) and how many units hold that stem — a query stems, weighs and
  spell-checks its words from here;
- ``synonyms``: the synonym data (``common.json`` and each registered ruleset's file) compiled
  to Porter-stem keys;
- ``search_units``: per unit, what the ranking policy weighs besides bm25 (ruleset, chapter or
  supplement, section title, whether it states a number);
- ``table_keys``: the rows of tables read by a number rather than rolled ("STR+SIZ" 6–10), with the
  numbers each covers;
- ``glossary`` and ``labels``: terms the chapters define — a label and its text (``Engaged: If you
  attack …``, ``Durability. Durability is …``), a defining sentence (``A Round (rnd) is …``,
  ``Engaged means …``) or an abbreviation (``Action Points (AP)``) — and, by stem, the units that
  define them;
- ``xrefs``: cross-references written in prose (``see Magic Mastery, Spell Speed``,
  ``use the Conflicting Actions rules``, ``the Trauma table``) and the Markdown links, each resolved
  to a section or table id of the database where one exists and marked ``dangling`` where not.

Everything here is deterministic: rows are inserted sorted.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import unicodedata

from collections.abc import Callable

from .words import HEADING_WEIGHT, LEAD_IN_WEIGHT, STOPWORDS, TRAIL_WEIGHT, WORD_RE, fold, normalize, porter_stems

__all__ = [
    "HEADING_WEIGHT",
    "WORD_RE",
    "fold",
    "porter_stems",
    "find_definitions",
    "find_xrefs",
    "states_number",
    "write_extras",
]

# --------------------------------------------------------------------------------------------
# Glossary

_SMALL = r"(?:of|and|or|the|to|from|in|for|on|a)"
_CAP = r"[A-Z][A-Za-z'’/-]*"
_LOW = r"[a-z][a-z'’/-]*"
# "Durability. Durability is …", "Positional Bonus. A Positional Bonus applies …" (every word capitalised).
_DOT_LABEL = re.compile(rf"^(?P<term>{_CAP}(?: (?:{_CAP}|{_SMALL})){{0,3}}(?: \([^)]{{1,20}}\))?)\. (?P<body>[A-Z].*)$")
# "Engaged: If you attack …", "Weapon attack: an attack made …", "Close range: Choose …".
_COLON_LABEL = re.compile(
    rf"^(?!(?:A|An|The|If|When|Each|All|Any|Your|You)\b)(?P<term>{_CAP}(?: (?:{_CAP}|{_LOW})){{0,3}}"
    rf"(?: \([^)]{{1,20}}\))?): (?P<body>\S.*)$")
# "A Round (rnd) is …", "Engaged means …", "An ally is …", "Full Actions require …".
_SENTENCE = re.compile(
    rf"^(?:(?P<art>A|An|The) )?(?P<term>(?:{_CAP}(?: {_CAP}){{0,3}})|(?:{_LOW}(?: {_LOW}){{0,1}}))"
    rf"(?: \((?P<abbr>[A-Za-z]{{2,6}})\))? (?:is|are|means|refers to|require|requires)\b")
# "2 Action Points (AP)", "The Tactical Round Sequence (TRS)".
_ABBR = re.compile(r"\b(?P<term>(?:[A-Z][a-z]+ ){0,3}[A-Z][a-z]+) \((?P<abbr>[A-Z]{2,6}|[a-z]{2,5})\)")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_NOT_TERMS = frozenset({"it", "this", "that", "there", "these", "they", "you", "he", "she", "we", "one",
                        "combat", "damage", "movement", "ties", "recovery", "gunfights"})
#: First words that start an ordinary sentence, not a defined term.
_NOT_FIRST = frozenset({"because", "each", "every", "identical", "only", "any", "all", "if", "when",
                        "this", "that", "these", "those", "both", "either", "neither", "some", "most"})
#: Words that never belong inside a term ("a crossbow that is …").
_NOT_INSIDE = frozenset({"that", "who", "which", "with", "whose", "you", "your"})


def _key(term: str) -> str:
    return " ".join(WORD_RE.findall(fold(term)))


def find_definitions(unit_id: str, kind: str, text: str) -> list[tuple[str, str, str]]:
    """Glossary entries in one unit as ``(term, key, style)``.

    ``style`` is ``label`` (``Term: …`` or ``Term. …``), ``sentence`` (``A Term is …``) or
    ``abbreviation`` (``Action Points (AP)`` gives the term ``AP``). Table rows and headings hold
    no definitions.
    """
    if kind in ("row", "heading"):
        return []
    found: list[tuple[str, str, str]] = []

    def add(term: str, style: str) -> None:
        term = re.sub(r"^(?:The|A|An) ", "", term.strip())
        key = _key(term)
        words = key.split()
        if not words or words[0] in _NOT_FIRST or _NOT_INSIDE.intersection(words):
            return
        if key not in _NOT_TERMS and not any(f[1] == key for f in found):
            found.append((term, key, style))

    m = _DOT_LABEL.match(text) or _COLON_LABEL.match(text)
    if m:
        term = m.group("term")
        abbr = re.match(r"^(.*) \(([^)]*)\)$", term)
        if abbr:
            add(abbr.group(1), "label")
        else:
            add(term, "label")
    # A labelled unit defines its label; a later "X is …" inside it ("Charge: … Attack is Hard")
    # describes that label's rule, not a term of its own.
    for sentence in ([] if m else _SENTENCE_SPLIT.split(text)):
        s = _SENTENCE.match(sentence)
        if s and (s.group("art") or s.group("term")[0].isupper()):
            add(s.group("term"), "sentence")
            if s.group("abbr"):
                add(s.group("abbr"), "abbreviation")
    for a in _ABBR.finditer(text):
        add(a.group("abbr"), "abbreviation")
        add(a.group("term"), "abbreviation")
    return found


# --------------------------------------------------------------------------------------------
# Cross-references written in prose

#: Books and chapters the sources point to; a reference that starts with one of these is to a
#: text outside the database unless a chapter of that title exists.
_BOOK = r"(?:(?:Magic|Weapon|Skill|Social|Exploration) Mastery|Monster Manual|General Rules|Conditions)"
#: ``(what the text must hold, pattern)``: the cheap test spares most units the full search.
_XREF_PATTERNS = tuple((re.compile("|".join(map(re.escape, needs))), pattern) for needs, pattern in (
    # "(see Fighting On)", "(see Magic Mastery, Duels)", "see Magic Mastery, Spell Speed."
    (("ee ",), re.compile(r"\b[Ss]ee (?:the )?(?P<ref>[A-Z][^.;:()]*?)(?=[.;:)]|$|\s+for\b)")),
    # "(Magic Mastery, Restoring Traumas)", "(Skill Mastery, Trade, Healer Discipline)"
    (("Mastery", "Manual", "General Rules", "Conditions"), re.compile(rf"\((?P<ref>{_BOOK}(?:, [^)]+)?)\)")),
    # "as the Monster Manual describes"
    (("Mastery", "Manual", "General Rules", "Conditions"), re.compile(rf"\bthe (?P<ref>{_BOOK})\b")),
    # "use the Conflicting Actions rules", "the Combat reference", "the Trauma table"
    (("rules", "reference", "table", "chapter"),
     re.compile(r"\b(?:the|your) (?P<ref>(?:[A-Z][A-Za-z-]* ){0,2}[A-Z][A-Za-z-]* "
                r"(?:rules|reference|table|chapter))\b")),
    # "the ranged situational table", "your class table's Health column"
    (("table",), re.compile(r"\b(?:the|your) (?P<ref>(?:[a-z-]+ )?[a-z-]+ table)\b")),
))
_TRAILING = re.compile(r"\s+(?:rules|reference|table|chapter|for full details)$")
_TABLE_WORD = re.compile(r"\btable$")


def find_xrefs(text: str) -> list[str]:
    """The cross-reference phrases in a unit's text, in order, without duplicates."""
    spans: list[tuple[int, int, str]] = []
    for needs, pattern in _XREF_PATTERNS:
        if needs.search(text) is None:
            continue
        for m in pattern.finditer(text):
            ref = m.group("ref").strip().rstrip(",")
            if not ref:
                continue
            start, end = m.span("ref")
            if any(s <= start < e or start <= s < end for s, e, _ in spans):
                continue
            spans.append((start, end, ref))
    return [ref for _, _, ref in sorted(spans)]


def _resolve(ref: str, ruleset: str, chapter_titles: set[str], sections: dict[tuple[str, str], str],
             tables: dict[tuple[str, str], str]) -> tuple[str | None, str]:
    """Target id and a reason for one prose reference."""
    is_table = bool(_TABLE_WORD.search(ref)) or ref.endswith("table")
    is_reference_work = ref.endswith(" reference")
    parts = [p.strip() for p in _TRAILING.sub("", ref).split(",") if p.strip()]
    if not parts:
        return None, "nothing named"
    book = re.fullmatch(_BOOK, parts[0])
    if book and _key(parts[0]) not in chapter_titles:
        return None, f"{parts[0]} is not in the database"
    if is_table:
        name = _key(parts[-1])
        target = tables.get((ruleset, name))
        return (target, "table") if target else (None, f"no table named {parts[-1]!r} in {ruleset}")
    if is_reference_work:
        return None, f"the {ref} is not in the database"
    for part in reversed(parts):
        target = sections.get((ruleset, _key(part)))
        if target:
            return target, "section"
    return None, f"no section named {parts[-1]!r} in {ruleset}"


# --------------------------------------------------------------------------------------------
# Writing


#: What a quantity question may be after: digits (2, 1d20, 1–3), a number word or an amount (matched
#: in lowercase text).
_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|half|halve[sd]?"
                     r"|twice|double|triple|single|once|dozen|none|tenth|fifth|quarter|per|number of|equal to"
                     r"|as many|as much|up to|at most|at least|more than|fewer than|less than)\b")
_HAS_WORD = re.compile(r"\w")
#: A number and the word it counts ("nine-phase", "2 AP", "1d6 rounds", "three speed categories":
#: the first word after it), in lowercase folded text.
_COUNTED = re.compile(r"(?:\b\d+(?:d\d+)?(?:[–-]\d+)?|\b(?:one|two|three|four|five|six|seven|eight|nine|ten"
                      r"|eleven|twelve|twenty|thirty|hundred))[\s-]+([a-z]{2,})\b")

Progress = Callable[[str], None]

#: A table row is the entry for the name in its first cell when its other cells say at least this
#: many words about it.
ROW_LABEL_WORDS = 4


def _ascii_words(*texts: str) -> bool:
    """Whether every word character of ``texts`` is ASCII (dashes, quotes and symbols may not be)."""
    return all(t.isascii() or not any(c.isalnum() or unicodedata.category(c)[0] in "MC" for c in t if ord(c) > 127)
               for t in texts)


def states_number(text: str) -> bool:
    """Whether ``text`` states a number, a die or an amount (``2 AP``, ``1d20``, ``1–3``, ``three types``,
    ``a number of rounds equal to``, ``per round``)."""
    return _NUMBER.search(text.lower()) is not None


def _titles(conn: sqlite3.Connection) -> dict[str, tuple[str, str]]:
    """``{section id: (its title, the titles above it)}``, the latter ``A › B``; the chapter's own
    title for the chapter itself (nothing above it)."""
    rows = conn.execute("SELECT id, parent, title, level FROM sections ORDER BY ord").fetchall()
    out: dict[str, tuple[str, str]] = {}
    for sid, parent, title, level in rows:  # a parent always comes before its children
        above = ""
        if level > 2 and parent in out:
            ptitle, ptrail = out[parent]
            above = f"{ptrail} › {ptitle}" if ptrail else ptitle
        out[sid] = (title, above)
    return out


def _link_only(cell: str, links: list[str]) -> bool:
    """Whether a table cell holds nothing but links (``step 3, no parry``): it points at a rule."""
    if not links or not cell:
        return False
    rest = cell
    for text in sorted(links, key=len, reverse=True):
        rest = rest.replace(text, " ")
    return not _HAS_WORD.search(rest)


def _search_columns(conn: sqlite3.Connection) -> list[tuple[str, str, str, str, int]]:
    """``(heading, body, trail, lead_in, rowid)`` of every unit: what the full-text indexes read, in NFKC.

    The heading is the title of the unit's own section (a row adds its table's title, so a row of
    the "Levels of success" table is found by "success"), the trail the titles above it; the body
    is the text, a row's without the cells that only link to a rule (the "Rule" column of a
    supplement table), which point at a rule rather than state one. A row's lead-in is its table's
    header, the names of the columns its body keeps ("Action Type · AP Cost · Notes"; a rollable
    table's die column left out): the header introduces each row as a list's lead-in introduces
    each item, so "cost" finds "Item, Pick Up | 1".
    """
    titles = _titles(conn)
    tables = dict(conn.execute("SELECT id, title FROM rule_tables"))
    # a rollable table's die column ("d100") names the roll, not what a row says: no row is about it
    columns = {tid: ["" if dice and c.strip().lower().lstrip("1") == dice.strip().lower().lstrip("1") else c
                     for c in json.loads(cols)]
               for tid, cols, dice in conn.execute("SELECT id, columns, dice FROM rule_tables")}
    cells = dict(conn.execute("SELECT unit_id, cells FROM table_rows"))
    links: dict[str, list[str]] = {}
    for from_id, text in conn.execute("SELECT from_id, text FROM refs ORDER BY from_id, text"):
        links.setdefault(from_id, []).append(text)
    out = []
    for rowid, uid, section, text, table_id in conn.execute(
            "SELECT rowid, id, section, text, table_id FROM units ORDER BY rowid"):
        heading, trail = titles.get(section, ("", ""))
        body, lead_in = text, ""
        if table_id is not None:
            title = tables.get(table_id, "")
            if title and title != heading:
                heading = f"{heading} › {title}" if heading else title
            if uid in cells:
                row = json.loads(cells[uid])
                kept = [k for k, c in enumerate(row) if c and not _link_only(c, links.get(uid, []))]
                if uid in links:
                    body = " | ".join(row[k] for k in kept)
                names = columns.get(table_id, [])
                lead_in = " · ".join(names[k] for k in kept if k < len(names) and names[k])
        out.append((normalize(heading), normalize(body), normalize(trail), normalize(lead_in), rowid))
    return out


def _write_indexes(conn: sqlite3.Connection) -> None:
    """Fill the searched columns (an item's lead-in: the body of the unit introducing its list; a
    row's: its table's header), build both full-text indexes and store the bm25 weights as rank."""
    conn.executemany("UPDATE units SET heading = ?, body = ?, trail = ?, lead_in = ? WHERE rowid = ?",
                     _search_columns(conn))
    conn.executemany("UPDATE units SET lead_in = (SELECT body FROM units i WHERE i.rowid = ?) WHERE rowid = ?",
                     [(intro, item) for item, intro in _list_intros(conn).items()])
    for table in ("units_fts", "units_plain_fts"):
        conn.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")
        conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
    conn.execute("INSERT INTO units_fts(units_fts, rank) VALUES ('rank', ?)",
                 (f"bm25({HEADING_WEIGHT}, 1.0, {TRAIL_WEIGHT}, {LEAD_IN_WEIGHT})",))


def _write_words(conn: sqlite3.Connection) -> dict[str, str]:
    """Fill ``words`` (the rules' and the synonym data's words, stem, units holding the stem);
    return ``{word: stem}``."""
    from .synonyms import synonym_words

    words = {r[0] for r in conn.execute("SELECT term FROM vocab")}
    words |= {fold(w) for w in synonym_words()}
    stems = porter_stems(words)
    conn.execute("CREATE VIRTUAL TABLE temp.stem_vocab USING fts5vocab(main, units_fts, row)")
    docs = dict(conn.execute("SELECT term, doc FROM temp.stem_vocab"))
    conn.execute("DROP TABLE temp.stem_vocab")
    conn.executemany("INSERT INTO words (word, stem, docs) VALUES (?, ?, ?)",
                     [(w, s, docs.get(s, 0)) for w, s in sorted(stems.items())])
    return stems


#: Words that belong to the verb before them ("work out", "back off"): a synonym key holding one is
#: matched as written, never with the question words around it dropped ("out of health" is not
#: "work out my health").
_PARTICLES = frozenset({"out", "up", "off", "down", "over", "away", "back", "in", "on", "through"})


def _stop(word: str) -> bool:
    return word in STOPWORDS or word.replace(" ", "") in STOPWORDS


def _write_synonyms(conn: sqlite3.Connection, stems: dict[str, str]) -> None:
    """Fill ``synonyms``: per scope ('' for every ruleset, else a ruleset's own entries), each typed
    phrase as Porter stems (and again without its question words, for keys of two or more content
    words: "order of the phases" meets "order of phases") with the book phrases it expands to and
    its weight; scope ``=``: the rules' own -ly words the stemmer keeps apart from their base word; and
    scope ``>``: a GM's short form of a word ("dmg") and the word, read in its place."""
    from .synonyms import _load

    variants = tuple((key, tuple(words)) for key, words in _variants(conn, stems).items())
    conn.executemany("INSERT INTO synonyms (scope, content, key, phrases, weight) VALUES (?, ?, ?, ?, ?)",
                     _synonym_table(_load(), variants))


@functools.lru_cache(maxsize=2)
def _synonym_table(entries, variants: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[tuple, ...]:
    """The rows of ``synonyms`` in key order, for the synonym data ``entries`` and the rules' word
    ``variants`` (scope ``=``): the same for every build of the same sources, so made once a process."""
    from .synonyms import abbreviations

    rows = dict(_synonym_rows(entries))
    for key, words in variants:
        rows[("=", 0, key)] = (words, 1.0)
    for short, word in abbreviations():  # scope ">": the short form, as typed, and its word
        rows[(">", 0, short)] = ((word,), 1.0)
    return tuple((*k, "\t".join(v), w) for k, (v, w) in sorted(rows.items()))


@functools.lru_cache(maxsize=2)
def _synonym_rows(entries) -> tuple[tuple[tuple[str, int, str], tuple[tuple[str, ...], float]], ...]:
    """The scoped rows of ``synonyms`` for the synonym data ``entries`` (``synonyms._load()``, the
    cache key): they depend on the data alone (a word's Porter stem is the word's own), so a process
    building several databases computes them once."""
    from .synonyms import COMMON, phrase_table, synonym_files, term_weights

    scoped = [("", phrase_table(COMMON), term_weights(COMMON))]
    for ruleset, _path in synonym_files():
        if ruleset is not None:
            scoped.append((ruleset, phrase_table("=" + ruleset), term_weights("=" + ruleset)))
    stems = porter_stems({w for _scope, table, _weights in scoped for key in table for w in key})
    rows: dict[tuple[str, int, str], tuple[list[str], float]] = {}
    for scope, table, weights in scoped:
        for key, phrases in table.items():
            keys = [(0, key)]
            kept = tuple(w for w in key if not _stop(w))
            if (len(kept) >= 2 and not _PARTICLES.intersection(kept)) or (kept and len(kept) == len(key)):
                keys.append((1, kept))
            for content, words in keys:
                got = rows.setdefault((scope, content, " ".join(stems.get(w, w) for w in words)), ([], 1.0))
                got[0].extend(p for p in phrases if p not in got[0])
                rows[(scope, content, " ".join(stems.get(w, w) for w in words))] = (got[0], min(got[1], weights[key]))
    return tuple((k, (tuple(v), w)) for k, (v, w) in rows.items())


#: One die of N sides, written "dN" or "1dN" (a query's "d6" meets the rules' "Roll 1d6").
_ONE_DIE = re.compile(r"(1?)d(\d{1,4})")


def _variants(conn: sqlite3.Connection, stems: dict[str, str]) -> dict[str, list[str]]:
    """Words of the rules the Porter stemmer does not bring together with a word a GM may type, by
    that word's stem: "successfully" (stem successfulli) for "successful" (success), "automatically"
    for "automatic", the forms of common.json ("fell" for "fall", "knives" for "knife"), and one die
    written two ways ("1d6" for "d6" and back). A query word matches them as if typed (scope ``=`` of
    ``synonyms``)."""
    from .synonyms import word_forms

    held = {w for (w,) in conn.execute("SELECT word FROM words WHERE docs > 0")}
    out: dict[str, list[str]] = {}
    for word in sorted(w for w in held if w.endswith("ly")):
        bases = [word[:-2]] + ([word[:-4]] if word.endswith("ally") else [])
        found = porter_stems(bases)
        for base in bases:
            key = found.get(base)
            if key and len(base) > 3 and key != stems.get(word):
                out.setdefault(key, []).append(word)
    for word in sorted(held):  # one die written two ways: "d6" and "1d6"
        die = _ONE_DIE.fullmatch(word)
        if die:
            other = ("d" if die.group(1) else "1d") + die.group(2)
            key = stems.get(other, other)
            if word not in out.get(key, []):
                out.setdefault(key, []).append(word)
    for forms in word_forms():
        for word in forms:
            key = stems.get(word, word)
            for other in forms:
                if other in held and stems.get(other, other) != key and other not in out.get(key, []):
                    out.setdefault(key, []).append(other)
    return out


def _write_glossary(conn: sqlite3.Connection, units: list[tuple]) -> None:
    glossary: set[tuple[str, str, str, str, str]] = set()
    for uid, ruleset, kind, text, _source_kind in units:
        for term, key, style in find_definitions(uid, kind, text):
            glossary.add((key, ruleset, uid, term, style))
    conn.executemany("INSERT INTO glossary (key, ruleset, unit_id, term, style) VALUES (?, ?, ?, ?, ?)",
                     sorted(glossary))


def _write_search_units(conn: sqlite3.Connection, stems: dict[str, str]) -> None:
    """Fill ``search_units`` and ``labels`` (the units defining a term, by the term's stems).

    A chapter's (or house rules') definition is a strong label, and so is a table row for the name
    in its first cell (when it says something about it, ``ROW_LABEL_WORDS``); a supplement's
    defining sentence is a weak one, and only where no chapter of its ruleset defines the term (the
    kit's notes explain, the chapters define). A unit states a number when its text has one — a
    row of a rollable table when a cell besides the die's faces has one. A sentence ending in a colon
    records how many units follow it up to the last item of the list it introduces (the items whose
    lead-in it is; nested items and an item's own paragraphs in between count); a table's row, the
    paragraph right before the table's first row in its section (the table's introduction), if any.
    """
    rows = []
    tables: dict[str, int] = {}  # a table's id -> the paragraph introducing it (0: none)
    previous: tuple[int, str, str] = (0, "", "")  # the unit before: rowid, kind, section
    opened: set[str] = set()
    items: dict[int, int] = {}  # a sentence introducing a list (ending in a colon) -> units up to its last item
    intros: dict[str, int] = {}  # the section's sentences ending in a colon, by text
    where = None
    for rowid, ruleset, kind, text, source_kind, cells, dice, heading, trail, lead_in, section, table_id in conn.execute(
            "SELECT u.rowid, u.ruleset, u.kind, u.body, c.kind, r.cells, t.dice, u.heading, u.trail, u.lead_in, "
            "u.section, u.table_id "
            "FROM units u "
            "JOIN chapters c ON c.ruleset = u.ruleset AND c.chapter = u.chapter "
            "LEFT JOIN table_rows r ON r.unit_id = u.id LEFT JOIN rule_tables t ON t.id = u.table_id "
            "ORDER BY u.rowid"):
        code = 0 if source_kind != "supplement" else 1 if kind == "row" else 2
        said = " ".join(json.loads(cells)[1:]) if dice and cells else text
        lead = kind != "heading" and section not in opened
        if lead:
            opened.add(section)
        if section != where:
            intros, where = {}, section
        if kind == "item" and lead_in in intros:  # its list's item, after nested items or paragraphs too
            items[intros[lead_in]] = rowid - intros[lead_in]
        if text.rstrip().endswith(":"):
            intros[text] = rowid
        if kind == "row" and table_id not in tables:
            tables[table_id] = previous[0] if previous[1:] == ("paragraph", section) else 0
        rows.append([rowid, ruleset, code, int(kind == "heading"), int(states_number(said)),
                     int(_ascii_words(text, heading, trail, lead_in)), int(lead), 0,
                     tables[table_id] if kind == "row" else 0])
        previous = (rowid, kind, section)
    for row in rows:
        row[7] = items.get(row[0], 0)
    conn.executemany("INSERT INTO search_units (rowid, ruleset, kind, title, number, ascii, lead, items, intro) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    _write_counted(conn, stems)
    defined = conn.execute(
        "SELECT g.key, g.ruleset, u.rowid, c.kind = 'supplement' FROM glossary g JOIN units u ON u.id = g.unit_id "
        "JOIN chapters c ON c.ruleset = u.ruleset AND c.chapter = u.chapter "
        "WHERE g.style IN ('label', 'sentence') ORDER BY g.key, u.rowid").fetchall()
    in_chapters = {(key, ruleset) for key, ruleset, _r, supplement in defined if not supplement}
    labels = {(_label_key(key, stems), rowid, int(not supplement))
              for key, ruleset, rowid, supplement in defined
              if not supplement or (key, ruleset) not in in_chapters}
    for rowid, cells, body in conn.execute(
            "SELECT u.rowid, r.cells, u.body FROM table_rows r JOIN units u ON u.id = r.unit_id ORDER BY u.rowid"):
        # a row saying something about the name in its first cell is its table's entry for that name
        # ("Bash | offensive | — | shields and bludgeoning weapons"; not "Parry | Reactive")
        name = json.loads(cells)[:1]
        words = WORD_RE.findall(fold(normalize(name[0]))) if name else []
        said = len(WORD_RE.findall(body)) - len(words)
        if words and len(words) <= 4 and words[0].isalpha() and said >= ROW_LABEL_WORDS:
            labels.add((_label_key(" ".join(words), stems), rowid, 1))
    conn.executemany("INSERT INTO labels (key, rowid, strong) VALUES (?, ?, ?)", sorted(labels))
    _write_titles(conn)


def _write_counted(conn: sqlite3.Connection, stems: dict[str, str]) -> None:
    """Fill ``counted``: per unit, the stems of the words its numbers count (``_COUNTED``)."""
    counted = {(stems.get(w, w), rowid)
               for rowid, body in conn.execute("SELECT rowid, body FROM units WHERE kind != 'heading'")
               for w in _COUNTED.findall(fold(body))}
    conn.executemany("INSERT INTO counted (stem, rowid) VALUES (?, ?)", sorted(counted))


def _list_intros(conn: sqlite3.Connection) -> dict[int, int]:
    """``{item rowid: rowid of the unit introducing its list}``: the paragraph (or shallower item)
    right before a run of deeper items in the same section ("When you reach 0 health:" before "You
    suffer an Injury", "Roll 1d100 for each Trauma. Each Trauma has a tier:" before "Minor: ...").
    A heading, a table row or a paragraph outside the list ends it (an item's own further paragraph
    does not)."""
    out: dict[int, int] = {}
    above: list[tuple[int, int]] = []  # (depth, rowid) of the units an item here may belong to
    section = None
    for rowid, sec, kind, depth in conn.execute("SELECT rowid, section, kind, depth FROM units ORDER BY ord"):
        if sec != section:
            above, section = [], sec
        if kind == "item":
            while above and above[-1][0] >= depth:
                above.pop()
            if above:
                out[rowid] = above[-1][1]
            above.append((depth, rowid))
        elif kind == "paragraph" and depth > 0:
            continue  # an item's own further paragraph: the list goes on
        else:
            above = [(0, rowid)] if kind == "paragraph" else []
    return out


def _label_key(term: str, stems: dict[str, str]) -> str:
    """A defined term's key: its words' distinct Porter stems, sorted ("attack repris")."""
    return " ".join(sorted({stems.get(w, w) for w in term.split()}))


#: A first cell naming numbers: one ("3"), a range ("6–10"), at most ("≤5", "<=5") or at least ("5+", "≥5").
_KEY = re.compile(r"^(?:(?P<lo>\d{1,6})(?:\s*[–—-]\s*(?P<hi>\d{1,6})|(?P<up>\+))?|(?:≤|<=)\s*(?P<most>\d{1,6})"
                  r"|(?:≥|>=)\s*(?P<least>\d{1,6}))$")
#: The "and up" end of a range ("5+").
KEY_TOP = 999_999_999


def _key_range(cell: str) -> tuple[int, int] | None:
    """The numbers a first cell covers, ``(low, high)``, or None if it names no number."""
    m = _KEY.match(cell.strip())
    if m is None:
        return None
    if m["most"] is not None:
        return 0, int(m["most"])
    if m["least"] is not None:
        return int(m["least"]), KEY_TOP
    low = int(m["lo"])
    return low, KEY_TOP if m["up"] else int(m["hi"]) if m["hi"] else low


def _write_table_keys(conn: sqlite3.Connection) -> None:
    """Fill ``table_keys``: the rows of each table not rolled (no die) whose every first cell names
    numbers, with the numbers each covers."""
    tables: dict[str, list[tuple[int, tuple[int, int] | None]]] = {}
    for table_id, rowid, cells in conn.execute(
            "SELECT r.table_id, u.rowid, r.cells FROM table_rows r JOIN rule_tables t ON t.id = r.table_id "
            "JOIN units u ON u.id = r.unit_id WHERE t.dice IS NULL ORDER BY r.table_id, r.row_index"):
        first = json.loads(cells)[:1]
        tables.setdefault(table_id, []).append((rowid, _key_range(first[0]) if first else None))
    conn.executemany("INSERT INTO table_keys (rowid, low, high) VALUES (?, ?, ?)",
                     sorted((rowid, *rng) for keyed in tables.values() if all(rng for _r, rng in keyed)
                            for rowid, rng in keyed))


def _write_titles(conn: sqlite3.Connection) -> None:
    """Fill ``titles``: each section below a chapter by its title's folded words, with the rowids of
    its heading unit and of the last unit under it (units are in document order, so a section and
    its subsections are one run of rowids)."""
    last: dict[str, int] = {}
    for rowid, section in conn.execute("SELECT rowid, section FROM units ORDER BY rowid"):
        while section:
            last[section] = rowid
            section = section.rpartition("/")[0]
    rows = [(_key(normalize(title)), rowid, last[sid]) for sid, title, rowid in conn.execute(
        "SELECT s.id, s.title, u.rowid FROM sections s JOIN units u ON u.id = s.id WHERE s.level > 1")]
    conn.executemany("INSERT INTO titles (key, rowid, last) VALUES (?, ?, ?)", sorted(r for r in rows if r[0]))


def _write_xrefs(conn: sqlite3.Connection, units: list[tuple]) -> None:
    chapter_titles = {_key(r[0]) for r in conn.execute("SELECT title FROM chapters WHERE kind != 'supplement'")}
    chapter_titles -= {"combat"}
    sections: dict[tuple[str, str], str] = {}
    for sid, ruleset, title in conn.execute(
            "SELECT id, ruleset, title FROM sections WHERE level > 1 ORDER BY ord"):
        sections.setdefault((ruleset, _key(title)), sid)
    tables: dict[tuple[str, str], str] = {}
    for tid, ruleset, name, title in conn.execute("SELECT id, ruleset, name, title FROM rule_tables ORDER BY id"):
        tables.setdefault((ruleset, _key(name.replace("-", " "))), tid)
        tables.setdefault((ruleset, _key(title)), tid)
        tables.setdefault((ruleset, _key(re.sub(r"\s+table$", "", title, flags=re.I))), tid)
    links: dict[str, list[tuple[str, str]]] = {}
    for from_id, target, text in conn.execute("SELECT from_id, target_id, text FROM refs ORDER BY from_id, target_id"):
        links.setdefault(from_id, []).append((text, target))
    rows: set[tuple[str, str, str | None, str, str]] = set()
    for uid, ruleset, kind, text, _source_kind in units:
        linked = {t for t, _ in links.get(uid, [])}
        for link_text, target in links.get(uid, []):
            rows.add((uid, link_text, target, "link", "Markdown link"))
        for ref in find_xrefs(text):
            if ref in linked or any(ref.startswith(t) for t in linked):
                continue
            target, reason = _resolve(ref, ruleset, chapter_titles, sections, tables)
            rows.add((uid, ref, target, "resolved" if target else "dangling", reason))
    conn.executemany("INSERT INTO xrefs (from_id, text, target_id, status, reason) VALUES (?, ?, ?, ?, ?)",
                     sorted(rows, key=lambda r: (r[0], r[1], r[2] or "", r[3], r[4])))


def write_extras(conn: sqlite3.Connection, progress: Progress | None = None) -> None:
    """Build the search index and fill every table derived from the units already in ``conn``.

    Args:
        conn: a writable connection to the database being built (units, sections, rule_tables,
            table_rows and refs already inserted).
        progress: called with a short line as each stage starts (``indexing 549 units``), or None.
    """
    say = progress or (lambda line: None)
    n = conn.execute("SELECT count(*) FROM units").fetchone()[0]
    say(f"indexing {n:,} units")
    _write_indexes(conn)
    say("compiling words and synonyms")
    stems = _write_words(conn)
    _write_synonyms(conn, stems)
    say("extracting definitions and cross-references")
    units = conn.execute(
        "SELECT u.id, u.ruleset, u.kind, u.text, c.kind FROM units u "
        "JOIN chapters c ON c.ruleset = u.ruleset AND c.chapter = u.chapter ORDER BY u.ord").fetchall()
    _write_glossary(conn, units)
    _write_search_units(conn, stems)
    _write_table_keys(conn)
    _write_xrefs(conn, units)
