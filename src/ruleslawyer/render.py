"""Renderers for trace trees: plain text, Markdown and HTML.

Each renderer is a visitor over a :class:`~ruleslawyer.trace.Step` tree.  None
of them knows about the database: a caller that has one passes ``resolve``, a
callable ``rule_id -> object | None`` whose result has ``.breadcrumb`` (e.g.
``"Mastery › Combat › Death › Fighting On ¶2"``) and ``.text`` (the quoted rule)
attributes.  Without ``resolve`` (or when it returns ``None``) citations show
their bare id.

Citations and rulings always look different: a citation is ``[rule id]`` /
a link; a ruling is ``{ruling id = answer}`` / "Ruling:" / a ``rl-ruling``
span, so a reader can tell "the book says so" from "the kit chose this".

The HTML renderer escapes every piece of text (labels, values, details, notes,
ids, breadcrumbs, quoted rule text) and adds only its own markup: ``<ol>``,
``<li>``, ``<span>``, ``<a class="rl-cite">`` and ``<blockquote>``.

This module is pure: no database, pandas or widget imports.
"""

from __future__ import annotations

import enum
import html
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from .trace import Citation, RulingUse, Step, StepKind

__all__ = ["Resolver", "Linker", "format_value", "to_text", "to_markdown", "to_html"]

Resolver = Callable[[str], Any]
"""``rule_id -> object with .breadcrumb and .text attributes, or None``."""

Linker = Callable[[str], "str | None"]
"""``rule_id -> href string, or None`` for no ``href``."""

_SAFE_SCHEMES = ("http://", "https://", "#", "/", "?", "./", "../")


def format_value(value: object) -> str:
    """Format a step value for display.

    ``None`` -> ``""``; booleans -> ``"yes"``/``"no"``; enums -> their value;
    tuples/lists/sets -> comma-separated items; mappings -> ``k=v`` pairs;
    anything else -> ``str(value)``.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return format_value(value.value)
    if isinstance(value, Mapping):
        return ", ".join(f"{format_value(k)}={format_value(v)}" for k, v in value.items())
    if isinstance(value, (tuple, list)):
        return ", ".join(format_value(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return ", ".join(sorted(format_value(v) for v in value))
    return str(value)


def _shown_value(label: str, value: object) -> str:
    """The value as displayed after the label, or ``""`` when the label already ends with it.

    ``Hit`` + ``hit`` or ``Attack (Ana): Critical`` + ``Critical`` would read twice; a value the
    label does not already say is always shown.
    """
    val = format_value(value)
    if not val:
        return ""
    lab, v = label.strip().lower(), val.strip().lower()
    if lab == v:
        return ""
    if lab.endswith(v) and not lab[-len(v) - 1].isalnum():
        return ""
    return val


def _one_line(text: str) -> str:
    return " ".join(text.split())


class _Lookup:
    """Memoised, failure-tolerant wrapper around a caller's resolver."""

    def __init__(self, resolve: Resolver | None) -> None:
        self._resolve = resolve
        self._cache: dict[str, tuple[str, str] | None] = {}

    def __call__(self, rule_id: str) -> tuple[str, str] | None:
        """Return ``(breadcrumb, text)`` or None; empty breadcrumb falls back to the id."""
        if self._resolve is None:
            return None
        if rule_id not in self._cache:
            found = self._resolve(rule_id)
            if found is None:
                self._cache[rule_id] = None
            else:
                crumb = getattr(found, "breadcrumb", None)
                text = getattr(found, "text", None)
                self._cache[rule_id] = (
                    str(crumb) if crumb else rule_id,
                    str(text) if text else "",
                )
        return self._cache[rule_id]


# --------------------------------------------------------------------------- text


def to_text(step: Step, resolve: Resolver | None = None) -> str:
    """Render a trace as an indented plain-text tree.

    One line per step, indented two spaces per level::

        Attack roll: 7 [mastery/combat/trials#1] {mastery.trial-ties = attacker}
          The attacker rolls their tier die.

    The line holds the label, ``": value"`` when there is a value, ``[rule id]``
    per citation (``[rule id — note]`` with a note) and ``{ruling id = answer}``
    per ruling. ``ERROR`` steps are prefixed ``"ERROR: "``. The detail follows
    on its own indented line. With ``resolve``, each resolved citation adds a
    line ``§ breadcrumb: "quoted text"``.

    Args:
        step: Root of the trace.
        resolve: Optional ``rule_id -> object with .breadcrumb/.text, or None``.

    Returns:
        The text, lines joined by ``"\\n"``, no trailing newline.
    """
    lookup = _Lookup(resolve)
    lines: list[str] = []

    def visit(s: Step, depth: int) -> None:
        pad = "  " * depth
        head = ("ERROR: " if s.kind is StepKind.ERROR else "") + _one_line(s.label)
        val = _shown_value(s.label, s.value)
        if val:
            head += f": {_one_line(val)}"
        for c in s.cites:
            head += f" [{c.rule_id}" + (f" — {_one_line(c.note)}" if c.note else "") + "]"
        for r in s.rulings:
            head += f" {{{r.ruling_id} = {r.answer}}}"
        lines.append(pad + head)
        if s.detail:
            for dl in s.detail.splitlines() or [""]:
                lines.append(pad + "  " + dl)
        for c in s.cites:
            found = lookup(c.rule_id)
            if found is not None:
                crumb, text = found
                lines.append(pad + f"  § {crumb}" + (f': "{_one_line(text)}"' if text else ""))
        for ch in s.children:
            visit(ch, depth + 1)

    visit(step, 0)
    return "\n".join(lines)


# --------------------------------------------------------------------------- markdown

_MD_SPECIAL = set("\\`*_[]|~")
_MD_LINE_START = set("#>-+=")


def _md(text: str, line_start: bool = False) -> str:
    """Escape text for inline Markdown: HTML-escape, then backslash-escape Markdown syntax.

    ``<``, ``>`` and ``&`` become entities (so no raw HTML reaches a notebook
    cell); emphasis, code, link and table characters get a backslash; with
    ``line_start`` a leading character that would start a heading, quote
    or list is escaped too.
    """
    flat = html.escape(_one_line(text), quote=False)
    out = "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in flat)
    if not line_start:
        return out
    if out and out[0] in _MD_LINE_START:
        out = "\\" + out
    else:  # "1. text" or "1) text" would start an ordered list
        digits = len(out) - len(out.lstrip("0123456789"))
        if digits and out[digits:digits + 1] in (".", ")"):
            out = out[:digits] + "\\" + out[digits:]
    return out


def _anchor(rule_id: str) -> str:
    return "#" + quote(rule_id, safe="/-._~")


def to_markdown(step: Step, resolve: Resolver | None = None, link: Linker | None = None) -> str:
    """Render a trace as a nested Markdown bullet list.

    Each step is a bullet: ``**label**: value``, the detail in italics on the
    next line, then one line per citation, ``Rule: breadcrumb ¶n (`rule-id`)``
    (the id alone without ``resolve``), followed, when ``resolve`` finds the rule,
    by a blockquote of its text. The output stands alone (a handout has no
    anchors to point at); pass ``link`` (``rule_id -> href or None``) to make each
    citation a link ``[breadcrumb ¶n](href)`` instead. Rulings read
    ``Ruling: `ruling.id` = **answer**`` so they never pass for the book.
    Lines of one item end in a backslash hard break. Children are nested
    bullets indented two spaces per level.

    All text is HTML-escaped and Markdown-escaped, so stored text cannot inject
    markup into a notebook cell.

    Args:
        step: Root of the trace.
        resolve: Optional ``rule_id -> object with .breadcrumb/.text, or None``.
        link: Optional ``rule_id -> href`` making citations links (unsafe schemes are dropped).

    Returns:
        The Markdown, lines joined by ``"\\n"``, no trailing newline.
    """
    lookup = _Lookup(resolve)
    lines: list[str] = []

    def visit(s: Step, depth: int) -> None:
        pad = "  " * depth
        cont = pad + "  "
        # blocks: ("p", line) joins with hard breaks; ("q", text) is a blockquote
        blocks: list[tuple[str, str]] = []
        head = ("**ERROR:** " if s.kind is StepKind.ERROR else "") + f"**{_md(s.label)}**"
        val = _shown_value(s.label, s.value)
        if val:
            head += f": {_md(val)}"
        blocks.append(("p", head))
        if s.detail:
            blocks.append(("p", f"*{_md(s.detail)}*"))
        for c in s.cites:
            found = lookup(c.rule_id)
            crumb = found[0] if found else c.rule_id
            href = _safe_href(link(c.rule_id) or "") if link is not None else None
            if href:
                line = f"Rule: [{_md(crumb)}]({href.replace(')', '%29').replace(' ', '%20')})"
            elif found:
                line = f"Rule: {_md(crumb)} (`{_code(c.rule_id)}`)"
            else:
                line = f"Rule: `{_code(c.rule_id)}`"
            if c.note:
                line += f" — {_md(c.note)}"
            blocks.append(("p", line))
            if found and found[1]:
                blocks.append(("q", _md(found[1], line_start=True)))
        for r in s.rulings:
            blocks.append(("p", f"Ruling: `{_code(r.ruling_id)}` = **{_md(r.answer)}**"))
        first = True
        for i, (kind, text) in enumerate(blocks):
            nxt = blocks[i + 1][0] if i + 1 < len(blocks) else None
            prefix = f"{pad}- " if first else cont
            first = False
            if kind == "q":
                lines.extend([cont.rstrip(), f"{cont}> {text}", cont.rstrip()])
            else:
                hard = "\\" if nxt == "p" else ""
                lines.append(f"{prefix}{text}{hard}")
        for ch in s.children:
            visit(ch, depth + 1)

    visit(step, 0)
    text = "\n".join(line.rstrip() for line in lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip("\n")


def _code(text: str) -> str:
    """Text safe inside a single-backtick code span (backticks and newlines removed)."""
    return _one_line(text).replace("`", "'")


# --------------------------------------------------------------------------- html


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _safe_href(href: str) -> str | None:
    h = href.strip()
    if h.lower().startswith(_SAFE_SCHEMES) or (":" not in h.split("/", 1)[0]):
        return h
    return None  # javascript:, data:, vbscript: and other schemes are dropped


def to_html(step: Step, resolve: Resolver | None = None, link: Linker | None = None) -> str:
    """Render a trace as nested ordered lists.

    Shape (one ``<li>`` per step, children in a nested ``<ol>``)::

        <ol class="rl-trace">
          <li class="rl-step rl-roll" data-kind="roll">
            <span class="rl-label">Attack roll</span>
            <span class="rl-value">7</span>
            <a class="rl-cite" data-rule-id="mastery/combat/trials#1"
               href="#mastery/combat/trials%231" title="mastery/combat/trials#1">Mastery › … ¶1</a>
            <blockquote class="rl-quote">quoted rule text</blockquote>
            <span class="rl-ruling" data-ruling-id="mastery.x" data-answer="a">Ruling: mastery.x = a</span>
            <span class="rl-detail">…</span>
            <ol>…children…</ol>
          </li>
        </ol>

    (Emitted without the whitespace shown.) Every piece of text and every
    attribute value goes through :func:`html.escape`; the only markup is the
    renderer's own.

    Args:
        step: Root of the trace.
        resolve: Optional ``rule_id -> object with .breadcrumb/.text, or None``;
            supplies the link text and the quoted rule.
        link: Optional ``rule_id -> href or None``. Default href is
            ``"#" + url-quoted id``. Hrefs with a scheme other than http(s)
            (e.g. ``javascript:``) are dropped.

    Returns:
        The HTML fragment as one string.
    """
    lookup = _Lookup(resolve)
    out: list[str] = []

    def cite(c: Citation) -> str:
        found = lookup(c.rule_id)
        crumb = found[0] if found else c.rule_id
        href = link(c.rule_id) if link is not None else _anchor(c.rule_id)
        href = _safe_href(href) if href else None
        attrs = f' class="rl-cite" data-rule-id="{_e(c.rule_id)}"'
        if href is not None:
            attrs += f' href="{_e(href)}"'
        attrs += f' title="{_e(c.rule_id)}"'
        s = f"<a{attrs}>{_e(crumb)}</a>"
        if c.note:
            s += f'<span class="rl-note">{_e(c.note)}</span>'
        if found and found[1]:
            s += f'<blockquote class="rl-quote">{_e(found[1])}</blockquote>'
        return s

    def ruling(r: RulingUse) -> str:
        return (
            f'<span class="rl-ruling" data-ruling-id="{_e(r.ruling_id)}" data-answer="{_e(r.answer)}">'
            f"Ruling: {_e(r.ruling_id)} = {_e(r.answer)}</span>"
        )

    def visit(s: Step) -> None:
        kind = s.kind.value
        out.append(f'<li class="rl-step rl-{kind}" data-kind="{kind}">')
        out.append(f'<span class="rl-label">{_e(s.label)}</span>')
        val = _shown_value(s.label, s.value)
        if val:
            out.append(f'<span class="rl-value">{_e(val)}</span>')
        out.extend(cite(c) for c in s.cites)
        out.extend(ruling(r) for r in s.rulings)
        if s.detail:
            out.append(f'<span class="rl-detail">{_e(s.detail)}</span>')
        if s.children:
            out.append("<ol>")
            for ch in s.children:
                visit(ch)
            out.append("</ol>")
        out.append("</li>")

    out.append('<ol class="rl-trace">')
    visit(step)
    out.append("</ol>")
    return "".join(out)
