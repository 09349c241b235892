"""Build the rules database from the Markdown sources.

The build reads every ``sources/<ruleset>/*.md`` file shipped with the package plus any house-rules
folder, turns headings, paragraphs, list items and table rows into citable units, validates them
(unique ids, resolvable cross-references, rollable-table coverage) and writes a SQLite file
atomically: a temporary file beside the target, then a rename. A failed build raises
:class:`BuildError` naming ``file:line`` for every problem and leaves any previous database as it was.

The format of the sources is described in ``rulesdb/README.md``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ruleslawyer.dice import MAX_DIE_SIDES

from ruleslawyer.dice import ZERO_FACE_DICE, parse_dice
from ruleslawyer.errors import DatabaseError, DatabasePathError, RulesInputError
from ruleslawyer.limits import NOTICE_SOURCE_BYTES, SOURCE_FILE_BYTES, TEMP_FILE_AGE_S, clip

from .paths import (APPLICATION_ID, DB_ENV, HOUSE_RULES_ENV, SCHEMA_FILE, SCHEMA_VERSION, SOURCES_DIR,
                    SourcesError, database_state, default_db_path, encode_source_dirs, house_rules_dir,
                    read_source, registered_source_dirs, remember_sealed, seal_database, source_files,
                    sources_digest, sources_stats)

__all__ = [
    "BuildError",
    "BuildReport",
    "DatabasePathError",
    "HOUSE_RULES_ENV",
    "DB_ENV",
    "SOURCES_DIR",
    "build",
    "default_db_path",
    "house_rules_dir",
    "slugify",
    "source_files",
    "sources_digest",
]


#: Characters the search layer uses as snippet markers; never allowed into stored text.
MARK_CHARS = "\ue000\ue001"

_RANGE = re.compile(r"^(\d{1,9})(?:\s*[–—-]\s*(\d{1,9}))?$")  # 9 digits at most: int() of 5,000 fails
_TABLE_DIRECTIVE = re.compile(r"^<!--\s*table:\s*([^\s>|]+)\s*(?:\|\s*([^>]*?)\s*)?-->$")
_KINDS = ("chapter", "supplement", "house-rules")
_SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class BuildError(SourcesError):
    """The sources could not be built. ``problems`` lists ``file:line: message`` strings."""




def _check_target(target: Path) -> None:
    """Refuse to replace anything at ``target`` but nothing, an empty file or an earlier rules database.

    Nothing at ``target`` is opened unless it is a regular file (a FIFO would block the build).

    Raises:
        DatabasePathError: ``target`` is a folder, a device, a FIFO, a socket, a symbolic link to one
            of those, or a non-empty file that is not a rules database (not SQLite, or neither the
            kit's application id nor a ``meta`` table with a ``schema_version``).
    """
    database_state(target)


@dataclass(frozen=True)
class BuildReport:
    """What a build wrote: the database path and how many of each thing it holds."""

    path: Path
    files: int
    sections: int
    units: int
    tables: int
    refs: int
    digest: str


def slugify(text: str) -> str:
    """Lowercase ASCII slug: accents stripped, every other run of characters becomes ``-``."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")


# --------------------------------------------------------------------------------------------
# Parsing


@dataclass
class _Unit:
    id: str
    ruleset: str
    chapter: str
    section: str
    kind: str
    depth: int
    heading: str
    breadcrumb: str
    text: str
    table_id: str | None
    source_file: str
    source_line: int


@dataclass
class _Table:
    id: str
    ruleset: str
    chapter: str
    section: str
    name: str
    title: str
    columns: list[str]
    dice: str | None
    sides: int | None
    source_file: str
    source_line: int
    rows: list[tuple[str, list[str], int | None, int | None]] = field(default_factory=list)


@dataclass
class _Doc:
    chapters: list[tuple] = field(default_factory=list)
    sections: list[tuple] = field(default_factory=list)
    units: list[_Unit] = field(default_factory=list)
    tables: list[_Table] = field(default_factory=list)
    refs: list[tuple[str, str, str, str]] = field(default_factory=list)  # from, target, text, where
    problems: list[str] = field(default_factory=list)


def _parser():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.front_matter import front_matter_plugin

    # html=False: any HTML in a source is kept as plain text (and escaped when shown); blocks may nest
    # MAX_NESTING deep (a list level is two), past which the parser would drop the rest of the file
    # (_parse_file refuses such a file)
    return (MarkdownIt("commonmark", {"html": False, "maxNesting": MAX_NESTING})
            .enable("table").use(front_matter_plugin))


#: markdown-it's nesting limit (its default is 20: nine list levels).
MAX_NESTING = 52
_CONTAINERS = ("bullet_list_open", "ordered_list_open", "list_item_open", "blockquote_open")


def _inline_text(token) -> tuple[str, list[tuple[str, str]]]:
    """Plain text of an inline token and the (target, link text) of every link in it."""
    parts: list[str] = []
    links: list[tuple[str, str]] = []
    link_target: str | None = None
    link_start = 0
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "link_open":
            link_target = str(child.attrs.get("href", ""))
            link_start = len("".join(parts))
        elif child.type == "link_close" and link_target is not None:
            links.append((link_target, "".join(parts)[link_start:]))
            link_target = None
        elif child.type == "image":
            parts.append(child.content)
    text = "".join(parts)
    for ch in MARK_CHARS:
        text = text.replace(ch, "")
    return re.sub(r"\s+", " ", text).strip(), links


@functools.cache
def _front_matter_loader():
    """A YAML SafeLoader for front matter: every scalar is text, anchors and aliases are refused.

    Text: ``title: 123…`` (5,000 digits) once failed every command with "Exceeds the limit (4300
    digits)"; numbers, booleans and dates are read as the text they are written as. No aliases: a
    few hundred bytes of nested ``&a``/``*a`` once expanded to 3 GB and 15 s per command.
    """
    import yaml

    class FrontMatterLoader(yaml.SafeLoader):
        def compose_node(self, parent, index):
            event = self.peek_event()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise yaml.composer.ComposerError(
                    None, None, "anchors and aliases (&name, *name) are not allowed in front matter",
                    event.start_mark)
            return super().compose_node(parent, index)

    for tag in ("int", "float", "bool", "timestamp"):
        FrontMatterLoader.add_constructor(f"tag:yaml.org,2002:{tag}", FrontMatterLoader.construct_yaml_str)
    return FrontMatterLoader


def _read_front_matter(raw: str, name: str, doc: _Doc) -> tuple[bool, object]:
    """``(True, the front matter's YAML value)``, or ``(False, None)`` after adding a ``file:line``
    problem (the line of the YAML error when it has one; the front matter starts on line 2)."""
    import yaml

    try:
        return True, yaml.load(raw, Loader=_front_matter_loader())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else 1
        what = " ".join(f"{exc.context or ''} {exc.problem or ''}".split())
        doc.problems.append(f"{name}:{line}: front matter is not valid YAML: {clip(what, 160, quote=False)}")
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        what = " ".join(str(exc).split())
        doc.problems.append(f"{name}:1: front matter is not valid YAML: {clip(what, 160, quote=False)}")
    return False, None


def _front_matter(raw: str, name: str, house: bool, doc: _Doc) -> dict | None:
    """The checked front matter of source ``name`` (every value text), or None after adding a
    ``name:line`` problem that echoes at most ``limits.ECHO_CHARS`` of a value."""
    where = f"{name}:1"
    ok, meta = _read_front_matter(raw, name, doc)
    if not ok:
        return None
    meta = meta or {}
    if not isinstance(meta, dict):
        doc.problems.append(f"{where}: front matter must be a mapping of keys to values")
        return None
    for key in ("ruleset", "chapter", "title"):
        if not meta.get(key):
            doc.problems.append(f"{where}: front matter needs '{key}'")
            return None
    for key in ("ruleset", "chapter", "title", "ruleset_title", "kind", "provenance"):
        value = meta.get(key)
        if key in meta and not isinstance(value, str) and not (value is None and key == "provenance"):
            doc.problems.append(f"{where}: front matter '{key}' must be text, got {clip(value)}")
            return None
    for key in ("ruleset", "chapter"):
        if not _SLUG_RE.match(meta[key]):
            doc.problems.append(
                f"{where}: front matter '{key}' must be a lowercase slug (a-z, 0-9, -), got {clip(meta[key])}")
            return None
    meta.setdefault("ruleset_title", meta["ruleset"].replace("-", " ").title())
    meta.setdefault("kind", "house-rules" if house else "chapter")
    meta.setdefault("provenance", "house rules" if house else "")
    if meta["kind"] not in _KINDS:
        doc.problems.append(f"{where}: front matter 'kind' must be one of {', '.join(_KINDS)}, "
                            f"got {clip(meta['kind'])}")
        return None
    return meta


def _die_header(text: str) -> int | str | None:
    """A table's first header as a die: its sides when it is one die in any spelling the dice parser
    reads (``d100``, ``1d20``, ``D6``, ``d%``), ``"bad"`` when it is dice but not one rollable die
    (``2d6``, ``d0``, ``1d6+1``), None when it is no dice at all (``Tier``, ``7``)."""
    head = text.strip()
    if not re.match(r"^[+]?\d*\s*[dD]\s*[\d%]", head):
        return None
    try:
        expr = parse_dice(head)
    except RulesInputError:
        return "bad"
    if len(expr.dice) == 1 and expr.dice[0].count == 1 and expr.dice[0].sign > 0 and expr.modifier == 0:
        return expr.dice[0].sides
    return "bad"


def _parse_range(cell: str, sides: int) -> tuple[int, int] | None:
    m = _RANGE.match(cell.strip())
    if not m:
        return None

    def face(s: str) -> int:
        # a zero face as players read it: "00" is 100 on a d100, "0" is 10 on a d10
        return sides if sides in ZERO_FACE_DICE and set(s) == {"0"} else int(s)

    low = face(m.group(1))
    high = face(m.group(2)) if m.group(2) else low
    return low, high


#: The token lists of source texts parsed lately in this process, by the text's digest and the nesting
#: limit: a rebuild (a changed house rule, a second database) parses again only the files that changed.
#: The walk only reads tokens. Texts over ``_PARSED_TEXT_MAX`` characters are not kept (their tokens
#: would hold hundreds of megabytes); at most ``_PARSED_MAX`` lists, the one used least lately dropped first
#: (a list found is used again: the sources every build reads stay while one-off texts come and go).
_PARSED: dict[tuple[bytes, int], list] = {}
_PARSED_MAX = 64
_PARSED_TEXT_MAX = 1_000_000
_PARSED_LOCK = threading.Lock()


def _tokens(md, text: str) -> list:
    """``md.parse(text)``, from :data:`_PARSED` when this text was parsed lately with the same limit."""
    if len(text) > _PARSED_TEXT_MAX:
        return md.parse(text)
    key = (hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest(),
           md.options["maxNesting"])
    with _PARSED_LOCK:
        tokens = _PARSED.pop(key, None)
        if tokens is not None:
            _PARSED[key] = tokens  # used lately: now the last to go
    if tokens is None:
        tokens = md.parse(text)
        with _PARSED_LOCK:
            while len(_PARSED) >= _PARSED_MAX:
                del _PARSED[next(iter(_PARSED))]
            _PARSED[key] = tokens
    return tokens


def _parse_file(path: Path, name: str, house: bool, md, doc: _Doc) -> None:
    """Parse source ``name`` into ``doc`` (format: rulesdb/README.md): its front matter, then its
    body's tokens; every fault is a ``name:line`` problem added to ``doc``."""
    text = read_source(path, name).decode("utf-8")  # at most limits.SOURCE_FILE_BYTES
    tokens = _tokens(md, text)
    if not tokens or tokens[0].type != "front_matter":
        doc.problems.append(f"{name}:1: missing front matter (--- ruleset/chapter/title ---)")
        return
    meta = _front_matter(tokens[0].content, name, house, doc)
    if meta is None:
        return
    limit = md.options["maxNesting"]
    deep = next((t for t in tokens if t.type in _CONTAINERS and t.level >= limit - 2), None)
    if deep is not None:  # the parser drops what is nested past its limit, and the rest of the file
        doc.problems.append(f"{name}:{deep.map[0] + 1 if deep.map else 1}: lists or quotes nested more than "
                            f"{(limit - 2) // 2} levels deep cannot be read; flatten them")
        return
    _SourceBody(name, meta, doc).walk(tokens)


# Tokens followed by an inline token (their text) and a closing token: the walk steps over all three.
_INLINE_OPENERS = ("heading_open", "paragraph_open", "th_open", "td_open")


class _SourceBody:
    """The walk over one source file's body tokens and the state it keeps: the heading stack
    (sections), the list depth and first-paragraph flags (list items), a pending table-name
    directive, and the open table and row (tables)."""

    def __init__(self, name: str, meta: dict, doc: _Doc) -> None:
        self.name, self.doc = name, doc
        self.ruleset, self.chapter = str(meta["ruleset"]), str(meta["chapter"])
        self.ruleset_title, self.chapter_title = str(meta["ruleset_title"]), str(meta["title"])
        self.chapter_id = f"{self.ruleset}/{self.chapter}"
        doc.chapters.append((self.ruleset, self.chapter, self.ruleset_title, self.chapter_title,
                             str(meta["kind"]), str(meta.get("provenance") or "").strip(), name))
        self.stack: list[tuple[int, str, str]] = []  # (level, slug, title) below the chapter
        self.counters: dict[str, int] = {}  # units numbered so far, per section id
        self.seen_h1 = False
        self.section_id = self.chapter_id
        self.depth = 0  # list nesting
        self.item_first_para: list[bool] = []  # per open list item: its first paragraph is still to come
        self.pending_table: tuple[str, int, str] | None = None  # (name, line, title) of a directive
        self.table: _Table | None = None
        self.row_cells: list[str] = []
        self.row_line = 0
        self.in_thead = False

    def walk(self, tokens) -> None:
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            line = (tok.map[0] + 1) if tok.map else 0
            inline = tokens[i + 1] if tok.type in _INLINE_OPENERS else None
            handler = _TOKEN_HANDLERS.get(tok.type)
            if handler is not None:
                handler(self, tok, inline, line)
            i += 1 if inline is None else 3
        self._finish()

    def _finish(self) -> None:
        if not self.seen_h1:
            self.doc.problems.append(f"{self.name}:1: no '# Chapter' heading")
        if self.pending_table:
            self.doc.problems.append(
                f"{self.name}:{self.pending_table[1]}: table name directive is not followed by a table")

    # -- units ---------------------------------------------------------------------------------

    def _trail(self) -> list[str]:
        return [title for _, _, title in self.stack]

    def _crumb(self, extra: str = "") -> str:
        return " › ".join([self.ruleset_title, self.chapter_title, *self._trail()]) + extra

    def _add_unit(self, kind: str, body: str, line: int, table_id: str | None = None) -> str:
        """Add the section's next numbered unit (``<section id>#<n>``) and return its id."""
        n = self.counters[self.section_id] = self.counters.get(self.section_id, 0) + 1
        uid = f"{self.section_id}#{n}"
        self.doc.units.append(_Unit(uid, self.ruleset, self.chapter, self.section_id, kind, self.depth,
                                    " ".join(self._trail()) or self.chapter_title, self._crumb(f" ¶{n}"),
                                    body, table_id, self.name, line))
        return uid

    # -- headings: the chapter (#) and its sections (## … ######) -------------------------------

    def _heading(self, tok, inline, line: int) -> None:
        title, links = _inline_text(inline)
        if links:
            self.doc.problems.append(f"{self.name}:{line}: links are not allowed in headings")
        level = int(tok.tag[1])
        if level == 1:
            self._chapter_heading(title, line)
        else:
            self._section_heading(level, title, line)

    def _chapter_heading(self, title: str, line: int) -> None:
        if self.seen_h1:
            self.doc.problems.append(f"{self.name}:{line}: a second level-1 heading; a file holds one chapter")
        self.seen_h1 = True
        self.doc.sections.append((self.chapter_id, self.ruleset, self.chapter, None, self.chapter_title, 1))
        self.doc.units.append(_Unit(self.chapter_id, self.ruleset, self.chapter, self.chapter_id, "heading", 0,
                                    self.chapter_title, " › ".join([self.ruleset_title, self.chapter_title]),
                                    title, None, self.name, line))

    def _section_heading(self, level: int, title: str, line: int) -> None:
        where = f"{self.name}:{line}"
        if not self.seen_h1:
            self.doc.problems.append(f"{where}: a level-{level} heading before the '# Chapter' heading")
        slug = slugify(title)
        if not slug:
            self.doc.problems.append(f"{where}: heading {clip(title)} has no letters or digits to make an id")
            slug = f"section-{line}"
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        if not self.stack and slug == "tables":
            self.doc.problems.append(f"{where}: a top-level section may not be called 'Tables' (reserved)")
        self.stack.append((level, slug, title))
        slugs = [s for _, s, _ in self.stack]
        parent = f"{self.chapter_id}/" + "/".join(slugs[:-1]) if len(slugs) > 1 else self.chapter_id
        self.section_id = f"{self.chapter_id}/" + "/".join(slugs)
        self.doc.sections.append((self.section_id, self.ruleset, self.chapter, parent, title, level))
        self.doc.units.append(_Unit(self.section_id, self.ruleset, self.chapter, self.section_id, "heading", 0,
                                    " ".join(self._trail()), self._crumb(), title, None, self.name, line))

    # -- lists and list items -------------------------------------------------------------------

    def _list_open(self, tok, inline, line: int) -> None:
        self.depth += 1

    def _list_close(self, tok, inline, line: int) -> None:
        self.depth -= 1

    def _item_open(self, tok, inline, line: int) -> None:
        self.item_first_para.append(True)

    def _item_close(self, tok, inline, line: int) -> None:
        self.item_first_para.pop()

    # -- paragraphs: units (an item's first paragraph is the item) or a table-name directive -----

    def _paragraph(self, tok, inline, line: int) -> None:
        body, links = _inline_text(inline)
        directive = _TABLE_DIRECTIVE.match(body)
        if directive and self.depth == 0:
            self._table_directive(directive, line)
        elif body:
            self._text_unit(body, links, line)

    def _text_unit(self, body: str, links: list[tuple[str, str]], line: int) -> None:
        where = f"{self.name}:{line}"
        if not self.seen_h1:
            self.doc.problems.append(f"{where}: text before the '# Chapter' heading")
        kind = "paragraph"
        if self.item_first_para and self.item_first_para[-1]:
            kind = "item"
            self.item_first_para[-1] = False
        self._add_refs(self._add_unit(kind, body, line), links, where)

    # -- cross-reference links ------------------------------------------------------------------

    def _add_refs(self, from_id: str, links: list[tuple[str, str]], where: str) -> None:
        for target, link_text in links:
            self.doc.refs.append((from_id, target, link_text, where))

    def _claim_row_refs(self, uid: str) -> None:
        """Give the links found in the row's cells (added as from ``@row``) to the row unit ``uid``."""
        refs = self.doc.refs
        for k in range(len(refs) - 1, -1, -1):
            if refs[k][0] != "@row":
                break
            refs[k] = (uid, *refs[k][1:])

    # -- tables: the name directive, the die header, rows and their faces ------------------------

    def _table_directive(self, directive: re.Match, line: int) -> None:
        self.pending_table = (directive.group(1), line, (directive.group(2) or "").strip())
        if not _SLUG_RE.match(self.pending_table[0]):
            self.doc.problems.append(
                f"{self.name}:{line}: table name {clip(self.pending_table[0])} must be a lowercase slug")

    def _table_open(self, tok, inline, line: int) -> None:
        pending = self.pending_table
        tname, tline, ttitle = pending if pending else (self.section_id.rsplit("/", 1)[-1], line, "")
        if pending and tline < line - 3:
            self.doc.problems.append(f"{self.name}:{tline}: table name directive is not followed by a table")
        self.pending_table = None
        tid = f"{self.chapter_id}/tables/{tname}"
        title = ttitle or (self.stack[-1][2] if self.stack else self.chapter_title)
        self.table = _Table(tid, self.ruleset, self.chapter, self.section_id, tname, title, [], None, None,
                            self.name, line)

    def _thead_open(self, tok, inline, line: int) -> None:
        self.in_thead = True

    def _thead_close(self, tok, inline, line: int) -> None:
        self.in_thead = False

    def _row_open(self, tok, inline, line: int) -> None:
        self.row_cells = []
        self.row_line = line

    def _cell(self, tok, inline, line: int) -> None:
        cell, links = _inline_text(inline)
        self.row_cells.append(cell)
        self._add_refs("@row", links, f"{self.name}:{self.row_line}")  # claimed when the row closes

    def _row_close(self, tok, inline, line: int) -> None:
        if self.table is None:
            return
        if self.in_thead:
            self._header_row(self.table)
        else:
            self._body_row(self.table)

    def _header_row(self, table: _Table) -> None:
        """The columns, and the die when the first header is one (the table is then rollable)."""
        table.columns = self.row_cells
        die = _die_header(self.row_cells[0]) if self.row_cells else None
        if die == "bad":
            # a roll of several dice is not one face each, and a d0 or a d1000000000
            # cannot be rolled (nor its coverage checked face by face)
            self.doc.problems.append(
                f"{self.name}:{self.row_line}: rollable table {table.id}: the die "
                f"{clip(self.row_cells[0].strip())} must be one die of 1 to {MAX_DIE_SIDES} sides, "
                f"e.g. d6, 1d20, d100, d%")
        elif die is not None:
            table.dice, table.sides = self.row_cells[0].strip(), die

    def _body_row(self, table: _Table) -> None:
        cells = self.row_cells + [""] * (len(table.columns) - len(self.row_cells))
        uid = self._add_unit("row", " | ".join(c for c in cells if c), self.row_line, table.id)
        self._claim_row_refs(uid)
        low, high = self._row_faces(table, cells[0]) if table.sides else (None, None)
        table.rows.append((uid, cells, low, high))

    def _row_faces(self, table: _Table, first_cell: str) -> tuple[int | None, int | None]:
        """A rollable table row's (low, high) faces from its first cell, or (None, None) after a problem."""
        rng = _parse_range(first_cell, table.sides)
        if rng is None:
            self.doc.problems.append(
                f"{self.name}:{self.row_line}: rollable table {table.id}: first cell {clip(first_cell)} "
                f"is not a face or a range of {table.dice}")
            return None, None
        return rng

    def _table_close(self, tok, inline, line: int) -> None:
        if self.table is not None:
            _check_coverage(self.table, self.doc)
            self.doc.tables.append(self.table)
            self.table = None


# Each token type the body walk acts on -> its handler, called as handler(walk, token, inline, line)
# (inline: the token's inline content for _INLINE_OPENERS, else None); other tokens are passed over.
_TOKEN_HANDLERS: dict[str, Callable] = {
    "heading_open": _SourceBody._heading,
    "bullet_list_open": _SourceBody._list_open,
    "ordered_list_open": _SourceBody._list_open,
    "bullet_list_close": _SourceBody._list_close,
    "ordered_list_close": _SourceBody._list_close,
    "list_item_open": _SourceBody._item_open,
    "list_item_close": _SourceBody._item_close,
    "paragraph_open": _SourceBody._paragraph,
    "table_open": _SourceBody._table_open,
    "thead_open": _SourceBody._thead_open,
    "thead_close": _SourceBody._thead_close,
    "tr_open": _SourceBody._row_open,
    "th_open": _SourceBody._cell,
    "td_open": _SourceBody._cell,
    "tr_close": _SourceBody._row_close,
    "table_close": _SourceBody._table_close,
}


def _check_coverage(table: _Table, doc: _Doc) -> None:
    if not table.sides:
        return
    hits: dict[int, int] = {}
    for uid, _, low, high in table.rows:
        if low is None:
            continue
        line = next(u.source_line for u in reversed(doc.units) if u.id == uid)
        if low > high or low < 1 or high > table.sides:
            doc.problems.append(
                f"{table.source_file}:{line}: rollable table {table.id}: range {low}–{high} "
                f"is outside 1–{table.sides}")
            continue
        for face in range(low, high + 1):
            if face in hits:
                doc.problems.append(
                    f"{table.source_file}:{line}: rollable table {table.id}: {face} is covered twice "
                    f"(also on line {hits[face]})")
            hits.setdefault(face, line)
    missing = [f for f in range(1, table.sides + 1) if f not in hits]
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (" …" if len(missing) > 10 else "")
        doc.problems.append(
            f"{table.source_file}:{table.source_line}: rollable table {table.id} ({table.dice}) "
            f"does not cover {shown}")


def _validate(doc: _Doc) -> None:
    seen: dict[str, str] = {}
    for u in doc.units:
        where = f"{u.source_file}:{u.source_line}"
        if u.id in seen:
            doc.problems.append(f"{where}: duplicate id {u.id} (first at {seen[u.id]})")
        else:
            seen[u.id] = where
    chapters: dict[tuple[str, str], str] = {}
    for c in doc.chapters:
        key = (c[0], c[1])
        if key in chapters:
            doc.problems.append(f"{c[6]}:1: chapter {c[0]}/{c[1]} is already defined in {chapters[key]}")
        chapters.setdefault(key, c[6])
    tables: dict[str, str] = {}
    for t in doc.tables:
        if t.id in tables:
            doc.problems.append(f"{t.source_file}:{t.source_line}: duplicate table id {t.id} "
                                f"(first at {tables[t.id]}); name it with <!-- table: NAME -->")
        tables.setdefault(t.id, f"{t.source_file}:{t.source_line}")
    targets = set(seen) | set(tables)
    for from_id, target, _text, where in doc.refs:
        if target not in targets:
            doc.problems.append(f"{where}: cross-reference to {clip(target)}, which does not exist")


def _disambiguate_titles(doc: _Doc) -> None:
    """Tables that would share a title (two in one section) get their name added to it."""
    seen: dict[tuple[str, str], int] = {}
    for t in doc.tables:
        seen[(t.ruleset, t.title)] = seen.get((t.ruleset, t.title), 0) + 1
    for t in doc.tables:
        if seen[(t.ruleset, t.title)] > 1:
            t.title = f"{t.title} — {t.name.replace('-', ' ')}"


def _parse_all(house_rules: Path | None, source_dirs) -> _Doc:
    md = _parser()
    doc = _Doc()
    for path, name, house in source_files(house_rules, source_dirs):
        try:
            _parse_file(path, name, house, md, doc)
        except SourcesError as exc:  # too large, or unreadable
            doc.problems.extend(exc.problems)
        except UnicodeDecodeError as exc:
            doc.problems.append(f"{name}:1: not UTF-8 text ({exc.reason})")
        except OSError as exc:
            doc.problems.append(f"{name}:1: cannot read: {exc.strerror or exc}")
        except (ValueError, RecursionError) as exc:  # e.g. a number too long to convert, nesting too deep
            doc.problems.append(f"{name}:1: cannot read: {clip(' '.join(str(exc).split()), 160, quote=False)}")
    _disambiguate_titles(doc)
    _validate(doc)
    return doc


# --------------------------------------------------------------------------------------------
# Writing


def _write(conn: sqlite3.Connection, doc: _Doc, digest: str, house: Path | None, source_dirs,
           stats: str = "") -> None:
    conn.executescript(SCHEMA_FILE.read_text(encoding="utf-8"))
    conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted({
        "schema_version": SCHEMA_VERSION,
        "sources_digest": digest,
        "sources_stats": stats,  # taken before the sources were read: an edit during the build is seen
        "house_rules": str(house.resolve()) if house else "",
        "source_dirs": encode_source_dirs(source_dirs),
    }.items()))
    conn.executemany("INSERT INTO chapters VALUES (?, ?, ?, ?, ?, ?, ?)", sorted(doc.chapters))
    conn.executemany(
        "INSERT INTO sections (id, ruleset, chapter, parent, title, level, ord) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(*s, n) for n, s in enumerate(doc.sections, 1)])
    conn.executemany(
        "INSERT INTO units (rowid, id, ruleset, chapter, section, kind, ord, depth, heading, breadcrumb,"
        " text, table_id, source_file, source_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(n, u.id, u.ruleset, u.chapter, u.section, u.kind, n, u.depth, u.heading, u.breadcrumb,
          u.text, u.table_id, u.source_file, u.source_line) for n, u in enumerate(doc.units, 1)])
    conn.executemany(
        "INSERT INTO rule_tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(t.id, t.ruleset, t.chapter, t.section, t.name, t.title, json.dumps(t.columns, ensure_ascii=False),
          t.dice, t.sides, t.source_file, t.source_line) for t in sorted(doc.tables, key=lambda t: t.id)])
    conn.executemany(
        "INSERT INTO table_rows VALUES (?, ?, ?, ?, ?, ?)",
        [(t.id, k, uid, json.dumps(cells, ensure_ascii=False), low, high)
         for t in sorted(doc.tables, key=lambda t: t.id) for k, (uid, cells, low, high) in enumerate(t.rows, 1)])
    conn.executemany("INSERT INTO refs VALUES (?, ?, ?)", sorted((f, t, x) for f, t, x, _ in doc.refs))
    from .extract import write_extras  # search index and its tables, glossary, prose cross-references

    write_extras(conn)
    # what a first search would otherwise derive from every unit: each ruleset's runs of rowids
    conn.execute("INSERT INTO meta VALUES ('search_runs', ?)", (_search_runs(conn),))


#: Each ruleset's runs of consecutive rowids in ``search_units`` (gaps and islands), in order.
_RUNS_SQL = ("SELECT ruleset, min(rowid), max(rowid) FROM (SELECT rowid, ruleset, rowid - row_number() "
             "OVER (PARTITION BY ruleset ORDER BY rowid) AS island FROM search_units) "
             "GROUP BY ruleset, island ORDER BY ruleset, 2")


def _search_runs(conn: sqlite3.Connection) -> str:
    """``meta.search_runs``: one ``ruleset first-rowid last-rowid`` line per run (ruleset ids are slugs)."""
    return "\n".join(f"{rs} {lo} {hi}" for rs, lo, hi in conn.execute(_RUNS_SQL))


def build(out: str | os.PathLike[str] | None = None,
          house_rules: str | os.PathLike[str] | None = None, *,
          notify: Callable[[bool], None] | None = None) -> BuildReport:
    """Build the rules database.

    The file is written beside the target as ``.NAME.tmp-PID``, sealed (the kit's application id and
    a checksum of the whole file in its header, which every open checks) and renamed over the target.

    Args:
        out: target SQLite file; defaults to :func:`default_db_path`.
        house_rules: a folder of house-rules ``*.md`` files; defaults to ``$RULESLAWYER_HOUSE_RULES``.
        notify: called once, ``notify(False)`` as the build starts writing the database, or
            ``notify(True)`` before parsing when the sources are large (past
            ``limits.NOTICE_SOURCE_BYTES``, so the build will be slow): a query that has to build
            says why it waits. Not called when small sources or the folder fail the build.

    Returns:
        A :class:`BuildReport` with the path and counts.

    Raises:
        BuildError: the sources are invalid (each problem as ``file:line: message``); nothing is
            written and an existing database at ``out`` is left untouched.
        DatabasePathError: ``out`` is a folder, a device, a FIFO, a socket (or a link to one) or a
            file that is not a rules database; refused before anything is read, and left untouched.
        DatabaseError: the file cannot be written (read-only folder, full disk); names the file,
            and an existing database at ``out`` is left untouched.
    """
    target = Path(out).expanduser() if out is not None else default_db_path()
    house = house_rules_dir(house_rules)
    _check_target(target)  # at once, before the sources are parsed
    try:
        source_dirs = registered_source_dirs()
        if notify is not None and _sources_size(house, source_dirs) > NOTICE_SOURCE_BYTES:
            notify(True)  # parsing them takes a while: say so now, not once it is done
            notify = None
        stats = sources_stats(house, source_dirs)  # before reading: a later edit changes them
        doc = _parse_all(house, source_dirs)
        if doc.problems:  # every file's problems, before the digest would stop at the first unreadable one
            raise BuildError(doc.problems)
        digest = sources_digest(house, source_dirs)
    except BuildError:
        raise
    except SourcesError as exc:
        raise BuildError(exc.problems) from None
    _check_target(target)  # again: the parse took a while
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(target)
        _remove_temp(tmp)
        tmp.touch(exist_ok=False)  # a read-only folder fails here, before the notice
        if notify is not None:
            notify(False)
        _write_file(tmp, doc, digest, house, source_dirs, stats)
        os.replace(tmp, target)
        remember_sealed(target)  # a large database need not be read whole by the next start
    except (OSError, sqlite3.OperationalError) as exc:
        _remove_temp(tmp)
        if isinstance(exc, sqlite3.OperationalError) and not _is_io_error(exc):
            raise  # a bug in the build (bad SQL), not the disk
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else " ".join(str(exc).split())
        raise DatabaseError(f"cannot write the rules database {target}: {reason}") from None
    except BaseException:
        _remove_temp(tmp)
        raise
    return BuildReport(target, len(doc.chapters), len(doc.sections), len(doc.units), len(doc.tables),
                       len(doc.refs), digest)


def _sources_size(house: Path | None, source_dirs) -> int:
    """Bytes the parse will read: every source file's size on disk (house rules included), but
    none of a file past ``limits.SOURCE_FILE_BYTES`` (refused unread)."""
    total = 0
    for path, _name, _house in source_files(house, source_dirs):
        try:
            size = path.stat().st_size
        except OSError:
            continue  # the parse names it
        total += size if size <= SOURCE_FILE_BYTES else 0
    return total


def _write_file(tmp: Path, doc: _Doc, digest: str, house: Path | None, source_dirs, stats: str = "") -> None:
    """Write the database to the (empty) temporary file ``tmp`` and seal it (the seal syncs it to disk)."""
    conn = sqlite3.connect(tmp)
    try:
        # a file nobody reads until it is sealed and renamed: no rollback journal and no sync per write
        # (a failed build deletes it; :func:`seal_database` syncs the finished file once)
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        with conn:
            _write(conn, doc, digest, house, source_dirs, stats)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("VACUUM")
    finally:
        conn.close()
    seal_database(tmp)


#: SQLite result codes of a write the disk refused (full, read-only, gone), not of a bug.
_IO_ERRORS = ("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM",
              "SQLITE_NOLFS", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_NOMEM")


def _is_io_error(exc: sqlite3.OperationalError) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(_IO_ERRORS) or "disk" in str(exc) or "unable to open" in str(exc)


_TEMP_PID = re.compile(r"^(\d+)(?:-journal)?$")


def _remove_stale_temps(target: Path) -> None:
    """Remove what killed builds left beside ``target``: ``.NAME.tmp-PID`` files (and their
    ``-journal``) whose process is gone, or that are older than ``limits.TEMP_FILE_AGE_S`` (the PID
    may be in use again). A live build's file is left alone."""
    prefix = f".{target.name}.tmp-"
    now = time.time()
    for entry in os.scandir(target.parent):
        m = _TEMP_PID.match(entry.name[len(prefix):]) if entry.name.startswith(prefix) else None
        if m is None or not entry.is_file(follow_symlinks=False):
            continue
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > TEMP_FILE_AGE_S
            if old or not _alive(int(m.group(1))):
                os.unlink(entry.path)
        except OSError:
            pass  # gone already, or not ours to remove


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user counts)."""
    if pid <= 0:
        return False  # not a process id (0 would signal our own process group)
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except (ProcessLookupError, OverflowError):
        return False
    return True


def _remove_temp(tmp: Path) -> None:
    """Remove a build's temporary file and its SQLite journal, if there."""
    for path in (tmp, tmp.with_name(tmp.name + "-journal")):
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass
