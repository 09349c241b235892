"""Source audit: what a rules author wants to know before printing.

:func:`audit` reads the built database and reports

- **dangling references** — prose cross-references (``see Magic Mastery, Spell Speed``, ``the
  Conflicting Actions rules``) whose target is not in the database (extracted at build time, see
  :mod:`ruleslawyer.rulesdb.extract`);
- **truncated lists** — a unit that announces a list (it ends with ``:``) with no list or table
  after it, and a list whose length differs from the number its sentence announces;
- **terms used but never defined** — capitalised game terms that no glossary entry, heading or
  table defines and that the text never uses in lower case (a heuristic: proper names such as
  spells show up too);
- **table coverage** — every table's rows and, for rollable ones, faces covered, gaps and overlaps,
  plus tables the text names that do not exist;
- **rulings** — the rulings the caller passes (the CLI passes every installed ruleset's, from
  :func:`ruleslawyer.registry.all_rulings`), with any cited id missing from the database.

The report has ``to_dict()`` and ``to_markdown()``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ruleslawyer.errors import RulesInputError
from ruleslawyer.limits import clip

from .words import WORD_RE, fold

__all__ = ["AuditReport", "audit", "cross_references", "NUMBER_WORDS"]

NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10}
_ANNOUNCE_COUNT = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten)\b", re.I)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?:;])\s+|\s+[—–-]\s+|\(|\)")
_CAP_RUN = re.compile(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z]+)*\b")
#: Capitalised words that are not game terms.
_NOT_TERMS = frozenset("""
i gm gms pc pcs npc npcs players player games master e g etc dc rules
""".split())


def _key(text: str) -> str:
    return " ".join(WORD_RE.findall(fold(text)))


@dataclass(frozen=True)
class AuditReport:
    """The audit's findings; every list holds plain dicts (JSON-ready).

    Attributes:
        scope: the rulesets and source kinds audited.
        dangling: ``{from_id, text, reason}`` per reference whose target is missing.
        resolved: ``{from_id, text, target_id}`` per prose reference resolved to a section or table.
        truncated_lists: ``{id, text, problem}`` per announced list that never comes (or differs in length).
        undefined_terms: ``{term, ruleset, count, first_id}``, most used first.
        tables: ``{id, rows, dice, faces, covered, gaps, overlaps, empty_cells, reversed_ranges,
            overlapping_rows}`` per table (the last two for a table read by a number: first cells
            whose range runs backwards, "10–6"; pairs of rows covering some number both).
        missing_tables: ``{from_id, text}`` per table the text names that does not exist.
        rulings: ``{id, ruleset, provenance, question, default, alternatives, cites, missing_cites}``.
        problems: engine packages that failed to import, as ``package: error``.
    """

    scope: dict
    dangling: tuple[dict, ...]
    resolved: tuple[dict, ...]
    truncated_lists: tuple[dict, ...]
    undefined_terms: tuple[dict, ...]
    tables: tuple[dict, ...]
    missing_tables: tuple[dict, ...]
    rulings: tuple[dict, ...]
    problems: tuple[str, ...] = field(default=())

    def summary(self) -> dict:
        """Counts per finding."""
        return {"dangling_references": len(self.dangling), "resolved_references": len(self.resolved),
                "truncated_lists": len(self.truncated_lists), "undefined_terms": len(self.undefined_terms),
                "tables": len(self.tables), "missing_tables": len(self.missing_tables),
                "rulings": len(self.rulings),
                "rulings_with_missing_cites": sum(1 for r in self.rulings if r["missing_cites"]),
                "problems": len(self.problems)}

    def to_dict(self) -> dict:
        return {"scope": self.scope, "summary": self.summary(), "dangling": list(self.dangling),
                "resolved": list(self.resolved), "truncated_lists": list(self.truncated_lists),
                "undefined_terms": list(self.undefined_terms), "tables": list(self.tables),
                "missing_tables": list(self.missing_tables), "rulings": list(self.rulings),
                "problems": list(self.problems)}

    def to_markdown(self) -> str:
        """The report as Markdown: a summary, then one section per finding."""
        def cell(x) -> str:
            return str(x).replace("|", "\\|").replace("\n", " ")

        def table(head: list[str], rows: list[list]) -> list[str]:
            if not rows:
                return ["None.", ""]
            out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            out += ["| " + " | ".join(cell(x) for x in r) + " |" for r in rows]
            return out + [""]

        s = self.summary()
        lines = ["# Source audit", "",
                 f"Rulesets: {', '.join(self.scope['rulesets'])}; sources: {', '.join(self.scope['kinds'])}.", ""]
        lines += table(["finding", "count"], [[k.replace("_", " "), v] for k, v in s.items()])
        lines += ["## Dangling references", ""]
        lines += table(["in", "reference", "why"], [[f"`{d['from_id']}`", d["text"], d["reason"]] for d in self.dangling])
        lines += ["## Truncated lists", ""]
        lines += table(["unit", "text", "problem"],
                       [[f"`{t['id']}`", _tail(t["text"]), t["problem"]] for t in self.truncated_lists])
        lines += ["## Terms used but never defined", "",
                  "Capitalised terms no glossary entry, heading or table defines (a heuristic).", ""]
        lines += table(["term", "ruleset", "uses", "first use"],
                       [[u["term"], u["ruleset"], u["count"], f"`{u['first_id']}`"] for u in self.undefined_terms])
        lines += ["## Tables", ""]
        lines += table(["table", "rows", "die", "covered", "gaps", "overlaps", "empty cells"],
                       [[f"`{t['id']}`", t["rows"], t["dice"] or "", f"{t['covered']}/{t['faces']}" if t["dice"] else "",
                         ", ".join(map(str, t["gaps"])), ", ".join(map(str, t["overlaps"]
                                                                         or t["overlapping_rows"])), t["empty_cells"]]
                        for t in self.tables])
        backwards = [(t["id"], r) for t in self.tables for r in t["reversed_ranges"]]
        if backwards:
            lines += ["Rows of tables read by a number whose range runs backwards (no number finds them):", ""]
            lines += table(["table", "first cell"], [[f"`{tid}`", r] for tid, r in backwards])
        lines += ["Tables named in the text but not in the database:", ""]
        lines += table(["in", "reference"], [[f"`{m['from_id']}`", m["text"]] for m in self.missing_tables])
        lines += ["## Rulings", ""]
        lines += table(["ruling", "provenance", "question", "default", "missing cites"],
                       [[f"`{r['id']}`", r["provenance"], r["question"], r["default"], ", ".join(r["missing_cites"])]
                        for r in self.rulings])
        if self.problems:
            lines += ["## Problems", ""] + [f"- {p}" for p in self.problems] + [""]
        return "\n".join(lines).rstrip() + "\n"


def _truncated(units: list) -> list[dict]:
    out = []
    for k, u in enumerate(units):
        uid, section, kind, depth, text = u["id"], u["section"], u["kind"], u["depth"], u["text"]
        if kind in ("row", "heading"):
            continue
        nxt = units[k + 1] if k + 1 < len(units) else None
        same = nxt is not None and nxt["section"] == section
        if text.rstrip().endswith(":"):
            follows = same and (nxt["kind"] == "row" or (nxt["kind"] == "item" and nxt["depth"] > (depth if kind == "item" else 0)))
            if not follows:
                what = ("the section ends" if not same else f"a {nxt['kind']} follows")
                out.append({"id": uid, "text": text, "problem": f"announces a list, but {what}"})
                continue
            last = re.split(r"(?<=[.!?])\s+", text.strip())[-1]
            m = _ANNOUNCE_COUNT.search(last)
            if m:
                want = NUMBER_WORDS[m.group(1).lower()]
                item_depth = nxt["depth"]
                got = 0
                for v in units[k + 1:]:
                    if v["section"] != section or (v["kind"] not in ("item", "row")) or v["depth"] < item_depth:
                        break
                    if v["depth"] == item_depth:
                        got += 1
                if got != want:
                    out.append({"id": uid, "text": text, "problem": f"announces {m.group(1).lower()} ({want}), lists {got}"})
    return out


def _undefined(units: list, defined: dict[str, set[str]]) -> list[dict]:
    lower_words: dict[str, set[str]] = {}
    for u in units:
        for w in re.findall(r"\b[a-z][a-z'-]+\b", u["text"]):
            lower_words.setdefault(u["ruleset"], set()).add(w)
    counts: dict[tuple[str, str], list] = {}
    def known(key: str, rs: str) -> bool:
        d = defined.get(rs, set())
        return key in _NOT_TERMS or key in d or key.rstrip("s") in d or key + "s" in d

    for u in units:
        if u["kind"] in ("heading", "row"):
            continue  # a table row's labels are named by its table
        rs = u["ruleset"]
        for part in _SENTENCE_SPLIT.split(u["text"]):
            part = part.strip()
            for m in _CAP_RUN.finditer(part):
                term = m.group()
                if known(_key(term), rs):
                    continue
                if m.start() == 0 and " " not in term:
                    continue  # a sentence's first word
                words = term.split()
                if m.start() == 0:
                    words = words[1:]
                    term = " ".join(words)
                key = _key(term)
                if not key or known(key, rs):
                    continue
                if all(w.lower() in lower_words.get(rs, set()) for w in re.split(r"[ -]", term)):
                    continue  # ordinary words capitalised in a title or for emphasis
                if any(_key(w) in defined.get(rs, set()) for w in words) and len(words) > 1:
                    continue
                entry = counts.setdefault((rs, term), [0, u["id"]])
                entry[0] += 1
    rows = [{"term": t, "ruleset": rs, "count": c, "first_id": first} for (rs, t), (c, first) in counts.items()]
    return sorted(rows, key=lambda r: (-r["count"], r["ruleset"], r["term"]))


def _rulings(rulings, ids: set[str]) -> list[dict]:
    return [{"id": r.id, "ruleset": r.ruleset, "provenance": r.provenance, "question": r.question,
             "default": r.default, "alternatives": list(r.alternatives), "cites": list(r.cites),
             "missing_cites": [c for c in r.cites if c not in ids]} for r in rulings]


def cross_references(rule_id: str | None = None, *, status: str | None = None,
                     db=None, rules=None) -> list[dict]:
    """Cross-references found at build time, for rendering them as links.

    Args:
        rule_id: only the references in this unit (default: all).
        status: ``link`` (a Markdown link), ``resolved`` (prose resolved to a section or table) or
            ``dangling`` (the target is not in the database); default all.

    Returns:
        ``[{"from_id", "text", "target_id", "status", "reason"}]`` sorted by unit and text;
        ``target_id`` is None for a dangling reference.

    Raises:
        RulesInputError: ``status`` is not one of the three (field ``status``).
    """
    from ruleslawyer.errors import RulesInputError

    from .handle import connect

    if status is not None and status not in ("link", "resolved", "dangling"):
        raise RulesInputError("status", f"must be link, resolved or dangling, got {status!r}")
    sql = "SELECT from_id, text, target_id, status, reason FROM xrefs WHERE 1 = 1"
    params: list[str] = []
    if rule_id is not None:
        sql += " AND from_id = ?"
        params.append(rule_id)
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    cols = ("from_id", "text", "target_id", "status", "reason")
    return [dict(zip(cols, r)) for r in connect(rules or db).execute(sql + " ORDER BY from_id, text, status", params)]


def _scope(conn, ruleset: str | None, include_supplements: bool) -> tuple[list[str], list[str], list[dict]]:
    """The rulesets and source kinds audited, and their units in book order."""
    known = [r[0] for r in conn.execute("SELECT DISTINCT ruleset FROM chapters ORDER BY ruleset")]
    if ruleset is not None and ruleset not in known:
        raise RulesInputError("ruleset", f"unknown ruleset {clip(ruleset)}; choose one of: {', '.join(known)}")
    kinds = ["chapter", "house-rules"] + (["supplement"] if include_supplements else [])
    rulesets = [ruleset] if ruleset else known
    marks, rmarks = ",".join("?" * len(kinds)), ",".join("?" * len(rulesets))
    params = (*kinds, *rulesets)
    cols = ["id", "ruleset", "section", "kind", "depth", "text"]
    units = [dict(zip(cols, r)) for r in conn.execute(
        f"SELECT u.id, u.ruleset, u.section, u.kind, u.depth, u.text FROM units u JOIN chapters c "
        f"ON c.ruleset = u.ruleset AND c.chapter = u.chapter WHERE c.kind IN ({marks}) AND u.ruleset IN ({rmarks}) "
        f"ORDER BY u.ord", params)]
    # report only the source kinds there are (no "house-rules" when none are built in)
    present = {k for (k,) in conn.execute(
        f"SELECT DISTINCT kind FROM chapters WHERE kind IN ({marks}) AND ruleset IN ({rmarks})", params)}
    return rulesets, [k for k in kinds if k in present], units


def _references(conn, in_scope: set[str]) -> tuple[list, list, list, list]:
    """Dangling references, references to missing tables, resolved references, and every xref row."""
    xrefs = conn.execute("SELECT from_id, text, target_id, status, reason FROM xrefs ORDER BY from_id, text").fetchall()
    dangling = [{"from_id": f, "text": t, "reason": why} for f, t, _tid, st, why in xrefs
                if st == "dangling" and f in in_scope and not why.startswith("no table")]
    missing_tables = [{"from_id": f, "text": t} for f, t, _tid, st, why in xrefs
                      if st == "dangling" and f in in_scope and why.startswith("no table")]
    resolved = [{"from_id": f, "text": t, "target_id": tid} for f, t, tid, st, _why in xrefs
                if st == "resolved" and f in in_scope]
    return dangling, missing_tables, resolved, xrefs


def _defined_terms(conn, xrefs) -> dict[str, set[str]]:
    """Per ruleset, every term something defines: glossary, headings, tables, titles, row labels."""
    defined: dict[str, set[str]] = {}
    for key, rs in conn.execute("SELECT key, ruleset FROM glossary"):
        defined.setdefault(rs, set()).add(key)
    for title, rs in conn.execute("SELECT title, ruleset FROM sections"):
        defined.setdefault(rs, set()).add(_key(title))
    for title, name, rs in conn.execute("SELECT title, name, ruleset FROM rule_tables"):
        defined.setdefault(rs, set()).update({_key(title), _key(name.replace("-", " "))})
    for rs, title in conn.execute("SELECT ruleset, ruleset_title FROM chapters"):
        defined.setdefault(rs, set()).update({_key(title), *(_key(w) for w in title.split())})
    for f, t, *_ in xrefs:  # the names of other books are references, reported above
        defined.setdefault(f.split("/", 1)[0], set()).update(_key(p) for p in re.split(r",\s*", t))
    # Table row labels (first cells) name things too: "Item, Catch", "Torch / Lamp".
    for cells, rs in conn.execute("SELECT r.cells, t.ruleset FROM table_rows r JOIN rule_tables t ON t.id = r.table_id"):
        first = json.loads(cells)[0]
        defined.setdefault(rs, set()).update(_key(p) for p in re.split(r"[,/]", first))
    return defined


def _table_coverage(conn, rulesets: list[str]) -> list[dict]:
    """Each table's rows and, for rollable ones, faces covered, gaps, overlaps and empty cells."""
    tables = []
    rmarks = ",".join("?" * len(rulesets))
    for tid, dice, sides, _rs in conn.execute(
            f"SELECT id, dice, sides, ruleset FROM rule_tables WHERE ruleset IN ({rmarks}) ORDER BY id", rulesets):
        rows = conn.execute("SELECT cells, low, high FROM table_rows WHERE table_id = ? ORDER BY row_index", (tid,)).fetchall()
        faces: dict[int, int] = {}
        for _cells, low, high in rows:
            if low is not None:
                for f in range(low, high + 1):
                    faces[f] = faces.get(f, 0) + 1
        empty = sum(1 for cells, _, _ in rows for c in json.loads(cells) if not str(c).strip())
        reversed_ranges, crossing = _key_problems(conn, tid)
        tables.append({"id": tid, "rows": len(rows), "dice": dice, "faces": sides or 0,
                       "covered": len(faces) if sides else 0,
                       "gaps": [f for f in range(1, (sides or 0) + 1) if f not in faces],
                       "overlaps": sorted(f for f, n in faces.items() if n > 1), "empty_cells": empty,
                       "reversed_ranges": reversed_ranges, "overlapping_rows": crossing})
    return tables


def _key_problems(conn, table_id: str) -> tuple[list[str], list[str]]:
    """For a table read by a number (``table_keys``): the first cells whose range runs backwards
    ("10–6", which no number finds), and the pairs of rows covering some number both ("rows 2 and 3")."""
    keys = conn.execute("SELECT r.row_index, r.cells, k.low, k.high FROM table_rows r JOIN units u ON u.id = r.unit_id "
                        "JOIN table_keys k ON k.rowid = u.rowid WHERE r.table_id = ? ORDER BY r.row_index",
                        (table_id,)).fetchall()
    backwards = [json.loads(cells)[0] for _i, cells, low, high in keys if low > high]
    spans = sorted((low, high, i) for i, _c, low, high in keys if low <= high)
    crossing = [f"rows {min(a[2], b[2])} and {max(a[2], b[2])}"
                for k, a in enumerate(spans) for b in spans[k + 1:] if b[0] <= a[1]]
    return backwards, crossing[:20]


def audit(ruleset: str | None = None, *, include_supplements: bool = False, rulings=None,
          db=None, rules=None) -> AuditReport:
    """Audit the sources in the database.

    Args:
        ruleset: only this ruleset (default: all).
        include_supplements: also audit the kit's supplement documents (default: the chapters and
            house rules only — the texts an author prints).
        rulings: the rulings to check (their cited ids must exist), e.g.
            ``ruleslawyer.registry.all_rulings()``; None: no rulings section. The data layer never
            imports the engines itself.

    Returns:
        An :class:`AuditReport`.

    Raises:
        RulesInputError: unknown ruleset (field ``ruleset``).
    """
    from .handle import connect

    conn = connect(rules or db)
    rulesets, kinds, units = _scope(conn, ruleset, include_supplements)
    dangling, missing_tables, resolved, xrefs = _references(conn, {u["id"] for u in units})
    defined = _defined_terms(conn, xrefs)
    ids = {r[0] for r in conn.execute("SELECT id FROM units UNION SELECT id FROM rule_tables")}
    checked = [r for r in _rulings(rulings or (), ids) if not ruleset or r["ruleset"] == ruleset]
    return AuditReport({"rulesets": rulesets, "kinds": kinds}, tuple(dangling), tuple(resolved),
                       tuple(_truncated(units)), tuple(_undefined(units, defined)),
                       tuple(_table_coverage(conn, rulesets)), tuple(missing_tables), tuple(checked), ())


def _tail(text: str, n: int = 90) -> str:
    """The end of ``text``: at most ``n`` characters, from a word's start, after "…" when cut."""
    if len(text) <= n:
        return text
    tail = text[-n:]
    start = tail.find(" ") + 1 if not text[-n - 1].isspace() else 0
    return "…" + tail[start:]
