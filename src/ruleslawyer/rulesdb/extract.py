"""Build-time extraction: stems, glossary terms and plain-text cross-references.

:func:`write_extras` runs inside :func:`ruleslawyer.rulesdb.build.build` after the units are
written. It reads the units back from the database being built and fills three tables (see
``schema.sql``):

- ``stems``: every unstemmed vocabulary word with its Porter stem, as FTS5's own ``porter``
  tokenizer stems it (search uses it to stem query words and highlight matches);
- ``postings`` and ``search_index``: the inverted index search ranks with — per stem, the units
  holding it and how often in the heading trail and in the body; per unit its length, ruleset and
  whether it is a heading or supplement text — the figures FTS5's bm25 reads, so a query reads a
  few rows by key and re-tokenises nothing;
- ``glossary``: terms the chapters define — a label and its text (``Engaged: If you attack …``,
  ``Durability. Durability is …``), a defining sentence (``A Round (rnd) is …``, ``Engaged means …``)
  or an abbreviation (``Action Points (AP)``);
- ``xrefs``: cross-references written in prose (``see Magic Mastery, Spell Speed``,
  ``use the Conflicting Actions rules``, ``the Trauma table``) and the Markdown links, each resolved
  to a section or table id of the database where one exists and marked ``dangling`` where not.

It also stores the bm25 column weights as the full-text index's default ``rank`` so that a plain
``ORDER BY rank`` ranks headings above body text.

Everything here is deterministic: rows are inserted sorted.
"""

from __future__ import annotations

import json
import re
import sqlite3

from .words import HEADING_WEIGHT, WORD_RE, fold, porter_stems

__all__ = [
    "HEADING_WEIGHT",
    "WORD_RE",
    "fold",
    "porter_stems",
    "find_definitions",
    "find_xrefs",
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
_XREF_PATTERNS = (
    # "(see Fighting On)", "(see Magic Mastery, Duels)", "see Magic Mastery, Spell Speed."
    re.compile(r"\b[Ss]ee (?:the )?(?P<ref>[A-Z][^.;:()]*?)(?=[.;:)]|$|\s+for\b)"),
    # "(Magic Mastery, Restoring Traumas)", "(Skill Mastery, Trade, Healer Discipline)"
    re.compile(rf"\((?P<ref>{_BOOK}(?:, [^)]+)?)\)"),
    # "as the Monster Manual describes"
    re.compile(rf"\bthe (?P<ref>{_BOOK})\b"),
    # "use the Conflicting Actions rules", "the Combat reference", "the Trauma table"
    re.compile(r"\b(?:the|your) (?P<ref>(?:[A-Z][A-Za-z-]* ){0,2}[A-Z][A-Za-z-]* (?:rules|reference|table|chapter))\b"),
    # "the ranged situational table", "your class table's Health column"
    re.compile(r"\b(?:the|your) (?P<ref>(?:[a-z-]+ )?[a-z-]+ table)\b"),
)
_TRAILING = re.compile(r"\s+(?:rules|reference|table|chapter|for full details)$")
_TABLE_WORD = re.compile(r"\btable$")


def find_xrefs(text: str) -> list[str]:
    """The cross-reference phrases in a unit's text, in order, without duplicates."""
    spans: list[tuple[int, int, str]] = []
    for pattern in _XREF_PATTERNS:
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


def _postings(conn: sqlite3.Connection, stems: dict[str, str]) -> tuple[dict[str, list[list[int]]], dict[int, int]]:
    """The inverted index search ranks with: ``{stem: [[rowid, hits in heading, hits in text], ...]}``
    and ``{rowid: tokens in the row}`` (the figures FTS5's bm25 reads), tokenised like the index.
    Words the vocabulary lacks are stemmed and added to ``stems``."""
    rows = []
    missing: set[str] = set()
    for rowid, heading, text in conn.execute("SELECT rowid, heading, text FROM units ORDER BY rowid"):
        h = [fold(w) for w in WORD_RE.findall(heading)]
        t = [fold(w) for w in WORD_RE.findall(text)]
        missing.update(w for w in h + t if w not in stems)
        rows.append((rowid, h, t))
    stems.update(porter_stems(missing))
    postings: dict[str, list[list[int]]] = {}
    lengths: dict[int, int] = {}
    for rowid, h, t in rows:
        counts: dict[str, list[int]] = {}
        for w in h:
            counts.setdefault(stems.get(w, w), [0, 0])[0] += 1
        for w in t:
            counts.setdefault(stems.get(w, w), [0, 0])[1] += 1
        lengths[rowid] = len(h) + len(t)
        for stem in sorted(counts):
            postings.setdefault(stem, []).append([rowid, *counts[stem]])
    return postings, lengths


def write_extras(conn: sqlite3.Connection) -> None:
    """Fill ``stems``, ``glossary`` and ``xrefs`` from the units already in ``conn``; set the rank.

    Args:
        conn: a writable connection to the database being built (units, sections, rule_tables and
            refs already inserted, full-text indexes rebuilt).
    """
    conn.execute("INSERT INTO units_fts(units_fts, rank) VALUES ('rank', ?)",
                 (f"bm25({HEADING_WEIGHT}, 1.0)",))

    words = [r[0] for r in conn.execute("SELECT term FROM vocab ORDER BY term")]
    stems = porter_stems(words)
    postings, lengths = _postings(conn, stems)
    from .synonyms import synonym_words

    stems.update(porter_stems(w for w in synonym_words() if fold(w) not in stems))
    conn.executemany("INSERT INTO stems (word, stem) VALUES (?, ?)", sorted(stems.items()))
    conn.executemany("INSERT INTO postings (stem, units) VALUES (?, ?)",
                     [(k, json.dumps(v, separators=(",", ":"))) for k, v in sorted(postings.items())])
    rulesets = [r[0] for r in conn.execute("SELECT DISTINCT ruleset FROM units ORDER BY ruleset")]
    supplement = {(r, c) for r, c in conn.execute("SELECT ruleset, chapter FROM chapters WHERE kind = 'supplement'")}
    rows = []
    for rowid, ruleset, chapter, kind in conn.execute("SELECT rowid, ruleset, chapter, kind FROM units ORDER BY rowid"):
        rows.append([rowid, lengths[rowid], rulesets.index(ruleset), int((ruleset, chapter) in supplement),
                     int(kind == "heading")])
    conn.execute("INSERT INTO search_index (key, value) VALUES (?, ?)",
                 ("units", json.dumps({"rulesets": rulesets, "rows": rows}, separators=(",", ":"))))

    units = conn.execute(
        "SELECT u.id, u.ruleset, u.kind, u.text, c.kind FROM units u "
        "JOIN chapters c ON c.ruleset = u.ruleset AND c.chapter = u.chapter ORDER BY u.ord").fetchall()
    glossary: set[tuple[str, str, str, str, str]] = set()
    for uid, ruleset, kind, text, _source_kind in units:
        for term, key, style in find_definitions(uid, kind, text):
            glossary.add((key, ruleset, uid, term, style))
    conn.executemany("INSERT INTO glossary (key, ruleset, unit_id, term, style) VALUES (?, ?, ?, ?, ?)",
                     sorted(glossary))

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
