"""Cross-references: which other rule or section a unit's text points at, for links in a shown rule.

The sources refer to other rules in two ways, both found when the database is built
(:mod:`ruleslawyer.rulesdb.extract`, table ``xrefs``): Markdown links to a citation id
(``see [Fighting On](mastery/combat/death/fighting-on)``; the unit's text keeps only ``Fighting On``)
and references in prose (``the Trauma table``, ``see Magic Mastery, Duels``), each resolved to a
section or table id where the database has one and marked ``dangling`` where not (another book).

:func:`references` reads them for the units on show; :func:`keep_links` (pure) decides which are
links: only a reference whose target is a unit or section of the database (a table's reference leads
to the table's section), never a dangling one, never one to the unit itself, each target once per unit,
in the order the text names them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass

from ruleslawyer.errors import RulesInputError

from .handle import resolve_rules

__all__ = ["Reference", "references", "keep_links"]


@dataclass(frozen=True)
class Reference:
    """One reference in a unit's text that leads to another rule.

    Attributes:
        from_id: citation id of the unit whose text holds it.
        text: the reference as the text writes it (``Fighting On``, ``Trauma table``).
        target_id: the unit or section id it leads to (``mastery/combat/death/fighting-on``).
        breadcrumb: the target's breadcrumb (``Mastery › Combat › Death › Fighting On``).
        start: offset of ``text`` in the unit's verbatim text (characters), -1 where the text does
            not hold it (a table row's link-only cell is not part of its text).
    """

    from_id: str
    text: str
    target_id: str
    breadcrumb: str
    start: int

    def to_dict(self) -> dict:
        return asdict(self)


def keep_links(rows: Iterable[tuple[str, str, str | None]], texts: Mapping[str, str],
               crumbs: Mapping[str, str], tables: Mapping[str, str]) -> tuple[Reference, ...]:
    """The references that are links, from the build's rows (pure: no database).

    Args:
        rows: ``(from_id, text, target_id)`` per reference found (``target_id`` None when dangling).
        texts: verbatim text of each ``from_id`` (a ``from_id`` not in it is skipped).
        crumbs: breadcrumb of every unit and section id that may be a target (the known ids).
        tables: table id -> the id of the section holding the table.

    Returns:
        The links, grouped by ``from_id`` in the order of ``texts``, each group in text order
        (references the text does not hold last, by their text); a target named twice in one unit, or
        the unit itself, is dropped.
    """
    out: dict[str, dict[str, Reference]] = {uid: {} for uid in texts}
    for from_id, text, target in rows:
        target = tables.get(target, target) if target else None
        if from_id not in out or target is None or target == from_id or target not in crumbs:
            continue
        ref = Reference(from_id, text, target, crumbs[target], texts[from_id].find(text))
        seen = out[from_id].get(target)
        if seen is None or _order(ref) < _order(seen):
            out[from_id][target] = ref
    return tuple(r for refs in out.values() for r in sorted(refs.values(), key=_order))


def _order(ref: Reference) -> tuple[int, str]:
    return (ref.start if ref.start >= 0 else 1 << 30, ref.text)


def references(rule_ids: str | Iterable[str], *, db=None, rules=None) -> tuple[Reference, ...]:
    """The links in the texts of these units (one citation id or several, e.g. a rule and its
    neighbours as shown), in the order given; see :func:`keep_links` for which references count.

    A section (heading) id stands for its own units: the links of every unit of the section, in book
    order. Example: ``references("mastery/combat/wounds-injuries-and-trauma/trauma-table#2")`` is one
    link, ``Fighting On`` -> ``mastery/combat/death/fighting-on``;
    ``references("mastery/combat/actions-and-reactions/casting#4")`` none (``Magic Mastery, Duels`` is
    another book).

    Raises:
        RulesInputError: ``rule_ids`` is not a string or an iterable of strings (field ``rule_ids``).
        UnknownIdError: an id names no unit or section (the message suggests close ids).
    """
    ids = _ids(rule_ids)
    if not ids:
        return ()
    handle = resolve_rules(rules if rules is not None else db)
    conn = handle.connection()
    ids = _units_of(conn, handle, ids)
    if not ids:
        return ()
    marks = ",".join("?" * len(ids))
    texts = dict(conn.execute(f"SELECT id, text FROM units WHERE id IN ({marks})", ids).fetchall())
    texts = {uid: texts[uid] for uid in ids if uid in texts}
    rows = conn.execute(f"SELECT from_id, text, target_id FROM xrefs WHERE from_id IN ({marks}) "
                        "AND target_id IS NOT NULL ORDER BY from_id, text", ids).fetchall()
    if not rows:
        return ()
    targets = {r[2] for r in rows}
    tables = {tid: sec for tid, sec in conn.execute(
        "SELECT id, section FROM rule_tables WHERE id IN (%s)" % ",".join("?" * len(targets)), list(targets))}
    wanted = sorted((targets - set(tables)) | set(tables.values()))
    crumbs = dict(conn.execute("SELECT id, breadcrumb FROM units WHERE id IN (%s)" % ",".join("?" * len(wanted)),
                               wanted).fetchall()) if wanted else {}
    return keep_links([tuple(r) for r in rows], texts, crumbs, tables)


def _ids(rule_ids) -> list[str]:
    """``rule_ids`` as a list of distinct ids, or RulesInputError naming what is allowed."""
    what = "a citation id (a string) or an iterable of them"
    if isinstance(rule_ids, str):
        return [rule_ids]
    if isinstance(rule_ids, (bytes, Mapping)) or not isinstance(rule_ids, Iterable):
        raise RulesInputError("rule_ids", f"must be {what}, got {type(rule_ids).__name__} {rule_ids!r:.80}")
    ids = list(dict.fromkeys(rule_ids))
    bad = next((i for i in ids if not isinstance(i, str)), None)
    if bad is not None or any(i is None for i in ids):
        raise RulesInputError("rule_ids", f"must be {what}, got an item {type(bad).__name__} {bad!r:.80}")
    return ids


def _units_of(conn, handle, ids: list[str]) -> list[str]:
    """The unit ids ``ids`` stand for: a unit as it is, a section (heading) as its units in book
    order; an id that is neither raises UnknownIdError (through the handle's look-up)."""
    out: list[str] = []
    for uid in ids:
        row = conn.execute("SELECT kind, section FROM units WHERE id = ?", (uid,)).fetchone()
        if row is None:
            handle.rule(uid)  # raises UnknownIdError with close ids
            continue
        if row[0] == "heading":
            out += [r[0] for r in conn.execute("SELECT id FROM units WHERE section = ? AND kind != 'heading' "
                                               "ORDER BY ord", (row[1],))]
        else:
            out.append(uid)
    return list(dict.fromkeys(out))
