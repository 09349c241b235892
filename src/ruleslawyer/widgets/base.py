"""The panel pattern every widget in the kit follows, and the HTML helpers they share.

A panel is a plain class (composition, not subclassing a widget): it owns its controls, one
:class:`PanelFrame` (title, status line, rulings bar and one HTML output) and a ``run()`` that reads
the controls, calls one engine function and renders the result's trace with
:func:`ruleslawyer.render.to_html` (through :func:`trace_html`). Callbacks only call ``run()``; no rules
logic lives here. A panel displays itself in a notebook (``panel`` as the last expression of a cell)
and works headless in plain pytest (``panel.run()``, ``panel.button.click()``), where its rendered
HTML is ``panel.output.value``.

Citations open the quoted rule in place: each ``<a class="rl-cite">`` of the trace sits in the
``<summary>`` of a ``<details class="rl-citation">`` element whose body is the verbatim rule text from
the database, so a click opens it in JupyterLab, in Voila and in an exported HTML page alike, with no
round trip to the kernel. Rulings are amber ``rl-ruling`` badges, and every ruling a trace used gets a
dropdown in the rulings bar: choosing another answer reruns the panel with ``rulings={id: answer}``.

Errors never show a traceback: :func:`error_html` renders the exception's message, escaped, naming the
offending field for a :class:`~ruleslawyer.errors.RulesInputError`.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import ipywidgets as widgets

from ruleslawyer.errors import RulesError, RulesInputError
from ruleslawyer.render import to_html
from ruleslawyer.rulesdb.handle import resolve_rules
from ruleslawyer.shipped import ASSETS_DIR
from ruleslawyer.trace import RulingUse, Step, get_ruling

__all__ = [
    "PanelFrame",
    "RulingsBar",
    "css",
    "style_widget",
    "esc",
    "resolve_rule",
    "trace_html",
    "error_html",
    "cite_html",
    "wrap_citations",
    "new_seed",
    "parse_script",
    "script_text",
    "DiceControls",
    "int_box",
    "TraceView",
    "result_html",
    "default_summary",
    "explain_html",
    "add_tooltips",
    "ruleset_options",
    "slot_dice",
    "PanelArgs",
]


def esc(text: object) -> str:
    """HTML-escape any value (quotes included) for text and attribute positions."""
    return html.escape("" if text is None else str(text), quote=True)


@functools.cache
def css() -> str:
    """The kit's stylesheet (``widgets/ruleslawyer.css``, shipped as the data package ``ruleslawyer.assets``)."""
    return (ASSETS_DIR / "ruleslawyer.css").read_text(encoding="utf-8")


def style_widget() -> widgets.HTML:
    """An HTML widget holding the kit's ``<style>``; every panel puts one at its top."""
    return widgets.HTML(f"<style>{css()}</style>", layout=widgets.Layout(display="none"))


#: How many of a section's rules a citation of the section (its heading) quotes.
SECTION_QUOTE_UNITS = 4


def _resolve(rules, rule_id: str):
    from types import SimpleNamespace

    from ruleslawyer.rulesdb import UnknownIdError, context, get_rule

    try:
        rule = get_rule(rule_id, rules=rules)
    except UnknownIdError:
        return None
    if rule.kind != "heading":
        return rule
    units = context(rule_id, after=SECTION_QUOTE_UNITS + 1, rules=rules).after
    text = "\n".join(u.text for u in units[:SECTION_QUOTE_UNITS])
    if len(units) > SECTION_QUOTE_UNITS:
        text += "\n…"
    return SimpleNamespace(id=rule.id, breadcrumb=rule.breadcrumb, text=text or rule.text, kind=rule.kind)


def resolve_rule(rule_id: str, rules=None):
    """The rule with this id in ``rules`` (a rules handle; default database), or None: the
    ``resolve`` of the renderers. Cached on the handle.

    A paragraph, list item or table row resolves to its :class:`ruleslawyer.rulesdb.Rule`. A section
    (a heading id) resolves to its breadcrumb and the verbatim text of its first
    :data:`SECTION_QUOTE_UNITS` rules, one per line (``…`` when the section has more), so opening the
    citation shows what the section says rather than its title alone.
    """
    handle = resolve_rules(rules)
    return handle.cached("widgets.quote:" + rule_id, lambda: _resolve(handle, rule_id))


_CITE = re.compile(
    r'(<a class="rl-cite"[^>]*>[^<]*</a>(?:<span class="rl-note">[^<]*</span>)?)'
    r'(<blockquote class="rl-quote">[^<]*</blockquote>)'
)


def wrap_citations(fragment: str, *, open_all: bool = False) -> str:
    """Put each resolved citation of :func:`ruleslawyer.render.to_html` output in a ``<details>``.

    ``<a class="rl-cite">…</a>[<span class="rl-note">…</span>]<blockquote class="rl-quote">…</blockquote>``
    becomes ``<details class="rl-citation"><summary>link + note</summary><blockquote>…</blockquote></details>``,
    so the quote is hidden until the link is clicked. Safe because the renderer escapes every text
    (no ``<`` can occur inside the matched text).
    """
    op = " open" if open_all else ""
    return _CITE.sub(lambda m: f'<details class="rl-citation"{op}><summary>{m.group(1)}</summary>{m.group(2)}</details>',
                     fragment)


def trace_html(step: Step, *, open_all: bool = False, rules=None) -> str:
    """Render a trace for a panel: :func:`~ruleslawyer.render.to_html` with the database as resolver.

    Citations become click-to-open quotes (see :func:`wrap_citations`); there is no ``href``.
    """
    body = to_html(step, resolve=lambda rule_id: resolve_rule(rule_id, rules), link=lambda _rule_id: None)
    return f'<div class="rl-trace-wrap">{wrap_citations(body, open_all=open_all)}</div>'


def cite_html(rule_id: str, *, note: str = "", open_: bool = False, rules=None) -> str:
    """One citation as the panels show it: a click-to-open link to the quoted rule.

    Unknown ids show the bare id (escaped) and no quote.
    """
    rule = resolve_rule(rule_id, rules)
    crumb = rule.breadcrumb if rule is not None else rule_id
    link = f'<a class="rl-cite" data-rule-id="{esc(rule_id)}" title="{esc(rule_id)}">{esc(crumb)}</a>'
    if note:
        link += f'<span class="rl-note">{esc(note)}</span>'
    if rule is None or not rule.text:
        return f'<span class="rl-citation rl-unresolved">{link}</span>'
    op = " open" if open_ else ""
    return (f'<details class="rl-citation"{op}><summary>{link}</summary>'
            f'<blockquote class="rl-quote">{esc(rule.text)}</blockquote></details>')


def error_html(exc: BaseException) -> str:
    """An exception as a one-paragraph message (escaped), never a traceback.

    A :class:`RulesInputError` names its field (``attacker.tier: tier must be ...``); a lookup error
    (unknown id) shows its message; anything else shows its type and message.
    """
    if isinstance(exc, RulesInputError):
        body = f'<b class="rl-field">{esc(exc.field)}</b>: {esc(exc.message)}'
    elif isinstance(exc, (ValueError, LookupError)):
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        body = esc(msg)
    else:
        body = f"{esc(type(exc).__name__)}: {esc(exc)}"
    return f'<div class="rl-error" role="alert">{body}</div>'


def new_seed() -> int:
    """A fresh seed for a panel's seed box (0 ≤ seed < 1,000,000, short enough to read aloud)."""
    import random

    return random.SystemRandom().randrange(1_000_000)


class RulingsBar:
    """The rulings a panel's last result used, behind one compact ``rulings (n)`` switch.

    ``toggle`` (a ToggleButton labelled ``rulings (n)``) opens ``box``, which holds one dropdown per
    ruling the last trace used (plus any ruling the user has changed, so it can be changed back).
    The list is replaced on every run, never appended to, so it does not grow across runs. Choosing
    another answer reruns the panel with ``rulings={id: answer}``.

    Attributes:
        toggle: the ``rulings (n)`` switch (hidden while no ruling is in play).
        box: the container of the dropdowns (shown while ``toggle`` is on).
        overrides: ruling id -> the answer chosen in the bar (only rulings the user changed).
        shown: ids of the rulings in play, in the order the trace used them.
    """

    def __init__(self, on_change: Callable[[], None]) -> None:
        self._on_change = on_change
        self._dropdowns: dict[str, widgets.Dropdown] = {}
        self._rows: dict[str, widgets.HBox] = {}
        self._quiet = False
        self.overrides: dict[str, str] = {}
        self.shown: tuple[str, ...] = ()
        self.toggle = widgets.ToggleButton(value=False, description="rulings (0)", icon="balance-scale",
                                           tooltip="The kit's named rulings this result used (where the book is "
                                                   "silent): open to see them and choose other answers",
                                           layout=widgets.Layout(width="auto", display="none"))
        self.toggle.add_class("rl-rulings-toggle")
        self.box = widgets.VBox([], layout=widgets.Layout(display="none"))
        self.box.add_class("rl-rulings")
        self.toggle.observe(lambda _c: self._sync(), names="value")

    @property
    def dropdowns(self) -> Mapping[str, widgets.Dropdown]:
        """Ruling id -> its dropdown (every ruling seen so far, shown or not)."""
        return dict(self._dropdowns)

    def show(self, uses: Iterable[RulingUse]) -> None:
        """Show exactly the rulings in ``uses`` (and the ones the user changed), each set to the answer used."""
        self._quiet = True
        shown: list[str] = []
        try:
            for use in uses:
                dd = self._dropdowns.get(use.ruling_id) or self._make(use)
                if dd is None:
                    continue
                if use.answer in dd.options:
                    dd.value = use.answer
                if use.ruling_id not in shown:
                    shown.append(use.ruling_id)
        finally:
            self._quiet = False
        shown += [rid for rid in self.overrides if rid not in shown and rid in self._rows]
        self.shown = tuple(shown)
        for rid, row in self._rows.items():
            row.layout.display = None if rid in self.shown else "none"
        self.box.children = tuple(self._rows[rid] for rid in self.shown)
        self.toggle.description = f"rulings ({len(self.shown)})"
        self.toggle.layout.display = None if self.shown else "none"
        self._sync()

    def _sync(self) -> None:
        self.box.layout.display = None if (self.toggle.value and self.shown) else "none"

    def _make(self, use: RulingUse) -> widgets.Dropdown | None:
        try:
            ruling = get_ruling(use.ruling_id)
        except RulesInputError:
            return None
        dd = widgets.Dropdown(options=list(ruling.answers), value=use.answer if use.answer in ruling.answers
                              else ruling.default, description="Ruling",
                              tooltip=ruling.question, layout=widgets.Layout(width="auto"))
        dd.add_class("rl-ruling-choice")
        dd.observe(lambda change, rid=ruling.id: self._changed(rid, change["new"]), names="value")
        label = widgets.HTML(
            f'<span class="rl-ruling" data-ruling-id="{esc(ruling.id)}">Ruling: {esc(ruling.id)}</span> '
            f'<span class="rl-ruling-q">{esc(ruling.question)}</span> '
            f'<span class="rl-ruling-prov">({esc(ruling.provenance)}; default {esc(ruling.default)})</span>')
        self._dropdowns[ruling.id] = dd
        self._rows[ruling.id] = widgets.HBox([dd, label], layout=widgets.Layout(flex_flow="row wrap"))
        return dd

    def _changed(self, ruling_id: str, answer: str) -> None:
        if self._quiet:
            return
        if answer == get_ruling(ruling_id).default:
            self.overrides.pop(ruling_id, None)
        else:
            self.overrides[ruling_id] = answer
        self._on_change()


def result_html(summary: str) -> str:
    """The one-line result every panel leads with (escaped): ``Hit: 7 damage to the Chest (9 - 2 armour)``."""
    return f'<div class="rl-result-line" role="status">{esc(summary)}</div>'


def default_summary(step: Step) -> str:
    """A result line from the trace's root alone: ``label: value`` (``label`` when it has no value)."""
    from ruleslawyer.render import format_value

    return step.label if step.value is None else f"{step.label}: {format_value(step.value)}"


def explain_html(step: Step, *, rules=None, open_: bool = False) -> str:
    """The trace folded in a ``<details class="rl-explain">`` whose summary counts its steps and
    citations; a click opens it (no kernel round trip)."""
    steps = list(step.walk())
    n_cites = sum(len(s.cites) for s in steps)
    label = f"Explanation: {len(steps)} step{'s' if len(steps) != 1 else ''}, {n_cites} citation{'s' if n_cites != 1 else ''}"
    op = " open" if open_ else ""
    return (f'<details class="rl-explain"{op}><summary>{esc(label)}</summary>'
            f'{trace_html(step, rules=rules)}</details>')


def ruleset_options(rules=None) -> list[tuple[str, str]]:
    """``[("All rulesets", ""), (title, id), ...]`` for a ruleset Dropdown: every ruleset in the
    database of ``rules`` (house rules included)."""
    from ruleslawyer.rulesdb import rulesets

    seen: dict[str, str] = {}
    for r in rulesets(rules=resolve_rules(rules)):
        seen.setdefault(r["ruleset"], r["ruleset_title"])
    return [("All rulesets", "")] + [(title, rid) for rid, title in seen.items()]


#: Longest output a panel's static HTML copy carries in full (characters); see :meth:`PanelFrame.static_html`.
STATIC_MAX_CHARS = 40_000


def _ruleset_of(css_class: str) -> str | None:
    """The installed ruleset whose id appears in a panel's css class (``rl-mythras-exchange-panel``)."""
    from ruleslawyer.registry import ruleset_ids

    words = css_class.split("-")
    return next((rid for rid in ruleset_ids() if rid in words), None)


class PanelFrame:
    """The shared frame of a panel: title, controls, status line, the result, the rulings switch.

    The output always leads with one line, the result and its arithmetic (:func:`result_html`),
    then the panel's own header (banners, tables), then the explanation folded in a ``<details>``
    (:func:`explain_html`). Under the output sit the ``rulings (n)`` switch (:class:`RulingsBar`)
    and the Markdown switch, so a long run never pushes the result below the fold.

    Args:
        title: shown at the top (escaped).
        controls: the panel's own control widgets, laid out in rows (each a widget or a list of them).
        on_rulings_change: called when a ruling dropdown changes (normally the panel's ``run``).
        css_class: extra class for the outer box (``rl-search-panel`` ...), handy in browser tests.
        beside: a widget (e.g. a list of hits) to place beside the output (above it on a phone).
        rules: the rules handle whose rules the citations quote and the tooltips define (None: the
            default database).
        ruleset: the ruleset whose glossary gives the fields' tooltips (default: the ruleset id named
            in ``css_class``, else every ruleset).

    Attributes:
        widget: the outer VBox to display.
        output: the HTML widget every result is rendered into.
        markdown_toggle, markdown: show the last trace as Markdown (a Textarea) to copy into a handout.
        status: a one-line HTML widget for the seed used, hints and the like.
        rulings: the :class:`RulingsBar`.
        summary: the last result line (plain text; "" when none).
        error: the exception on show, or None.
    """

    def __init__(self, title: str, controls: Iterable[Any], *, on_rulings_change: Callable[[], None] | None = None,
                 css_class: str = "", beside: widgets.Widget | None = None, rules=None,
                 ruleset: str | None = None) -> None:
        self.rules = rules  # the rules handle citations are quoted from (None: the default database)
        self.title_text, self.css_class = title, css_class
        rows = [widgets.HBox(list(row), layout=widgets.Layout(flex_flow="row wrap"))
                if isinstance(row, (list, tuple)) else row for row in controls]
        self.title = widgets.HTML(f'<div class="rl-title">{esc(title)}</div>')
        self.status = widgets.HTML("")
        self.status.add_class("rl-status-line")
        self.output = widgets.HTML("")
        self.output.add_class("rl-output")
        self.rulings = RulingsBar(on_rulings_change or (lambda: None))
        body: widgets.Widget = self.output
        if beside is not None:
            beside.add_class("rl-beside")
            body = widgets.HBox([beside, self.output], layout=widgets.Layout(flex_flow="row wrap"))
            body.add_class("rl-split")
        self.markdown_toggle = widgets.ToggleButton(value=False, description="Markdown", icon="file-text",
                                                    tooltip="The trace as Markdown, to copy into a handout",
                                                    layout=widgets.Layout(width="auto", display="none"))
        self.markdown_toggle.add_class("rl-markdown-toggle")
        self.markdown = widgets.Textarea(layout=widgets.Layout(width="98%", height="260px", display="none"))
        self.markdown.add_class("rl-markdown")
        self.markdown_toggle.observe(lambda _c: self._sync_markdown(), names="value")
        self._last_step: Step | None = None
        self._good_output = ""
        self.summary = ""
        self.error: BaseException | None = None
        tools = widgets.HBox([self.rulings.toggle, self.markdown_toggle], layout=widgets.Layout(flex_flow="row wrap"))
        tools.add_class("rl-tools")
        self.widget = widgets.VBox([style_widget(), self.title, *rows, self.status, body, tools, self.rulings.box,
                                    self.markdown])
        self.widget.add_class("rl-panel")
        if css_class:
            self.widget.add_class(css_class)
        add_tooltips(rows, rules=rules, ruleset=ruleset or _ruleset_of(css_class))

    def show(self, fragment: str, *, status: str | None = None, summary: str | None = None) -> None:
        """Replace the output with an HTML fragment the caller built from escaped text, led by the
        result line ``summary`` (plain text, escaped here) when one is given."""
        self.summary = summary or ""
        lead = result_html(summary) if summary else ""
        if status is not None:  # first, so the status line never trails the result it describes
            self.status.value = status
        self.output.value = self._good_output = f'<div class="rl-body">{lead}{fragment}</div>'
        self.error = None

    def show_trace(self, step: Step, *, header: str = "", footer: str = "", status: str | None = None,
                   summary: str | None = None, explain_open: bool = False) -> None:
        """Show a result: the one-line ``summary`` (default: :func:`default_summary` of ``step``), the
        header (HTML built from escaped text), the trace folded (:func:`explain_html`) and the footer;
        the rulings switch then lists exactly the rulings this trace used."""
        self.rulings.show(step.ruling_uses())
        self.show(header + explain_html(step, rules=self.rules, open_=explain_open) + footer, status=status,
                  summary=summary or default_summary(step))
        self._last_step = step
        self.markdown_toggle.layout.display = None
        self._sync_markdown()

    def _sync_markdown(self) -> None:
        on = self.markdown_toggle.value and self._last_step is not None
        self.markdown.layout.display = None if on else "none"
        if on:
            from ruleslawyer.render import to_markdown

            self.markdown.value = to_markdown(self._last_step, resolve=lambda i: resolve_rule(i, self.rules))

    def show_error(self, exc: BaseException) -> None:
        """Show ``exc`` as a message (see :func:`error_html`) in place of the result."""
        self.output.value = error_html(exc)
        self.error = exc
        self.summary = ""
        self._last_step = None
        self.markdown_toggle.value = False
        self.markdown_toggle.layout.display = "none"

    def guard(self, fn: Callable[[], Any]) -> Any:
        """Call ``fn``; on any exception show it as a message and return None instead of raising.

        An error on show is cleared first (the last good output comes back), so a good run never
        leaves an old error standing even when it writes no output of its own.
        """
        if self.error is not None:
            self.output.value, self.error = self._good_output, None
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - a panel shows every error as a message
            self.show_error(exc)
            return None

    def static_html(self) -> str:
        """The panel's current state as static HTML (title, status line and output; no controls),
        for a notebook opened without a kernel or exported to HTML. An output longer than
        :data:`STATIC_MAX_CHARS` is replaced by its result line and a note (a notebook output stays
        small)."""
        cls = f"rl-panel rl-static {esc(self.css_class)}".strip()
        body = self.output.value
        if len(body) > STATIC_MAX_CHARS:
            body = (result_html(self.summary) if self.summary else "") + (
                f'<div class="rl-hint">The full result ({len(body) // 1000:,} KB) shows when the notebook runs.</div>')
        return (f"<style>{css()}</style><div class=\"{cls}\"><div class=\"rl-title\">{esc(self.title_text)}</div>"
                f'<div class="rl-status-line">{self.status.value}</div>{body}</div>')

    def text(self) -> str:
        """The panel's current state as one plain line (its title and result line, or its error)."""
        if self.error is not None:
            return f"{self.title_text}: error: {self.error}"
        return f"{self.title_text}: {self.summary}" if self.summary else self.title_text

    def mimebundle(self, **kwargs) -> dict:
        """The panel's display data: the live widget view, plus a static ``text/html`` rendering of its
        current state (:meth:`static_html`) and a plain-text line (:meth:`text`) that show where there
        is no kernel (GitHub, nbviewer, ``jupyter nbconvert``)."""
        data = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        data["text/html"] = self.static_html()
        data["text/plain"] = self.text()
        return data


def add_tooltips(rows: Iterable[Any], *, rules=None, ruleset: str | None = None) -> None:
    """Give every control in ``rows`` (widgets, boxes of widgets) without a tooltip one: the glossary's
    definition of its label with the citation (see :func:`ruleslawyer.widgets.tooltips.field_tooltip`)."""
    from .tooltips import field_tooltip

    stack = list(rows)
    while stack:
        w = stack.pop()
        if isinstance(w, widgets.Box):
            stack.extend(w.children)
            continue
        label = getattr(w, "description", "")
        if label and hasattr(w, "tooltip") and not w.tooltip and not isinstance(w, widgets.Button):
            w.tooltip = field_tooltip(label, rules=rules, ruleset=ruleset,
                                      hint=getattr(w, "placeholder", "") or "")


_SLOT = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*[:=]\s*(.*?)\s*$")


def parse_script(text: str) -> dict[str, list[int]]:
    """Read scripted dice typed in a panel: ``"attack: 4 4 1; defense: 2"`` -> ``{"attack": [4, 4, 1], "defense": [2]}``.

    Slots are separated by ``;`` or new lines; faces by spaces or commas. An empty text is no script.

    Raises:
        RulesInputError: field ``dice script`` for a part that is not ``slot: faces``.
    """
    out: dict[str, list[int]] = {}
    for part in re.split(r"[;\n]", text or ""):
        if not part.strip():
            continue
        m = _SLOT.match(part)
        faces = re.split(r"[\s,]+", m.group(2).strip()) if m else []
        if not m or not all(re.fullmatch(r"-?\d+", f) for f in faces if f) or not any(faces):
            raise RulesInputError("dice script", f"write each slot as 'slot: faces', e.g. 'attack: 4 4 1; "
                                                 f"defense: 2'; could not read {part.strip()!r}")
        out.setdefault(m.group(1), []).extend(int(f) for f in faces if f)
    return out


def script_text(script: Mapping[str, Iterable[int]]) -> str:
    """The inverse of :func:`parse_script`: ``{"attack": [4, 4, 1]}`` -> ``"attack: 4 4 1"``."""
    return "; ".join(f"{slot}: {' '.join(str(f) for f in faces)}" for slot, faces in script.items())


def int_box(description: str, value: int, width: str = "150px", **kw) -> widgets.IntText:
    """A compact labelled whole-number box."""
    return widgets.IntText(value=value, description=description, layout=widgets.Layout(width=width),
                           style={"description_width": "initial"}, **kw)


SEEDED = "Seeded dice"
SCRIPTED = "Scripted dice"


class DiceControls:
    """Seed (shown and settable), scripted dice, and the Replay button for a panel.

    Rolls that roll: the panel's Roll button calls :meth:`roll`, which draws a fresh seed into the
    seed box (seeded mode) and runs, so every press is a new roll and its seed is on show. ``Replay``
    (``replay_button``) runs again with the seed shown, e.g. one typed in from a note, to repeat a
    roll exactly. In ``SCRIPTED`` mode the script's slots take the faces typed
    (``attack: 4 4 1; defense: 2``) and any other slot rolls from the seed, which Roll then keeps, so
    a worked example gives the same result on every press. :meth:`kwargs` gives
    ``{"seed": ..., "script": ...}`` for an engine call.

    Args:
        seed: the first seed shown (used by a plain ``run()`` and by Replay).
        script: scripted dice (non-empty: start in ``SCRIPTED`` mode).
        slots_hint: the script box's placeholder.
        on_run: the panel's ``run`` (called by Roll and Replay); ``on_new_seed`` is the older name.
    """

    def __init__(self, seed: int = 7, script: str = "", slots_hint: str = "attack: 4 4 1; defense: 2",
                 on_run: Callable[[], None] | None = None, on_new_seed: Callable[[], None] | None = None) -> None:
        self.mode = widgets.ToggleButtons(options=[SEEDED, SCRIPTED], value=SCRIPTED if script else SEEDED,
                                          tooltips=["Roll draws a fresh seed each time (Replay repeats it)",
                                                    "Dice typed in the script (worked examples); other dice "
                                                    "from the seed"],
                                          style={"button_width": "110px"}, layout=widgets.Layout(width="auto"))
        self.seed = widgets.IntText(value=seed, description="Seed", layout=widgets.Layout(width="180px"),
                                    tooltip="The seed of the dice: Roll draws a new one; type one and press "
                                            "Replay to repeat a roll")
        self.seed.add_class("rl-seed")
        self.script = widgets.Text(value=script, placeholder=slots_hint, description="Script",
                                   layout=widgets.Layout(width="420px"),
                                   tooltip=f"Scripted dice, slot: faces; slot: faces (e.g. {slots_hint})")
        self.script.add_class("rl-script")
        self.replay_button = widgets.Button(description="Replay", icon="repeat", layout=widgets.Layout(width="auto"),
                                            tooltip="Roll again with the seed shown (the same dice)")
        self.replay_button.add_class("rl-replay")
        self._on_run = on_run or on_new_seed
        self.replay_button.on_click(lambda _b: self.replay())
        self.mode.observe(lambda _c: self._sync(), names="value")
        self._sync()
        self.row = widgets.HBox([self.mode, self.seed, self.replay_button, self.script],
                                layout=widgets.Layout(flex_flow="row wrap"))

    def _sync(self) -> None:
        self.script.disabled = self.mode.value != SCRIPTED

    def fresh(self) -> None:
        """Draw a fresh seed into the seed box (seeded mode only: a scripted example keeps its seed)."""
        if self.mode.value == SEEDED:
            self.seed.value = new_seed()

    def roll(self) -> None:
        """A new roll: :meth:`fresh`, then the panel's run."""
        self.fresh()
        self.replay()

    def replay(self) -> None:
        """Run again with the seed shown."""
        if self._on_run is not None:
            self._on_run()

    def kwargs(self) -> dict[str, Any]:
        """``{"seed": int, "script": dict | None}`` for the engine call."""
        script = parse_script(self.script.value) if self.mode.value == SCRIPTED else None
        return {"seed": self.seed.value, "script": script or None}

    def describe(self) -> str:
        """A one-line (escaped HTML) account of the dice used, for the status line."""
        seed = f'seed <b class="rl-seed-used">{esc(self.seed.value)}</b>'
        if self.mode.value == SCRIPTED and self.script.value.strip():
            return f'scripted dice <code class="rl-script-used">{esc(self.script.value.strip())}</code>; other dice from {seed}'
        return f"dice from {seed} (Replay repeats them)"


def slot_dice(seed: int, script: Mapping[str, Iterable[int]] | None = None):
    """A :class:`ruleslawyer.dice.Dice` whose unscripted slots each roll from their own stream,
    ``random.Random(f"{seed}/{slot}")``: whether one slot is rolled (a hit location, or not with
    Choose Location) never shifts another slot's faces (the damage). Scripted slots take their faces
    as usual; :attr:`~ruleslawyer.dice.Dice.history` records every face. Deterministic in ``seed``,
    so Replay repeats it.
    """
    import random

    from ruleslawyer.dice import Dice

    class SlotDice(Dice):
        def roll(self, sides: int, slot: str) -> int:  # noqa: D102 - as Dice.roll, from the slot's stream
            if self.is_scripted(slot):
                return super().roll(sides, slot)
            shared, self._rng = self._rng, self._streams.setdefault(slot, random.Random(f"{self.seed}/{slot}"))
            try:
                return super().roll(sides, slot)
            finally:
                self._rng = shared

    dice = SlotDice(seed=seed, script={k: list(v) for k, v in (script or {}).items()} or None)
    dice._streams = {}
    return dice


class TraceView:
    """A result's trace for a notebook cell: HTML with click-to-open citations and amber rulings
    (``_repr_html_``), plain text with the quoted rules (``str()``), Markdown for a handout
    (:meth:`markdown`).

    Args:
        result: an engine result (anything with ``.trace``) or a :class:`~ruleslawyer.trace.Step`.
    """

    def __init__(self, result: Any, *, rules=None) -> None:
        self.step: Step = result if isinstance(result, Step) else result.trace
        self.rules = rules

    def _repr_html_(self) -> str:
        return f"<style>{css()}</style>" + trace_html(self.step, rules=self.rules)

    def markdown(self) -> str:
        """The trace as Markdown (:func:`ruleslawyer.render.to_markdown`) with the quoted rules."""
        from ruleslawyer.render import to_markdown

        return to_markdown(self.step, resolve=lambda i: resolve_rule(i, self.rules))

    def __str__(self) -> str:
        from ruleslawyer.render import to_text

        return to_text(self.step, resolve=lambda i: resolve_rule(i, self.rules))

    __repr__ = __str__


#: The largest seed a panel's seed box holds (its IntText is a 32-bit whole number in the browser).
MAX_PANEL_SEED = 2**31 - 1


class PanelArgs:
    """The one check of a panel constructor's arguments: a bad one is recorded, never raised, and
    never replaced silently by something else; :meth:`report` then shows it in the panel's error area
    (``frame.error``, the message widget) in place of a first result.

    Each check returns the value to build the controls with: the argument when it is good, else
    the control's harmless default (the panel still builds and shows the error, not that default's
    result). The first bad argument is the one shown.

    Args:
        rules: the panel's ``rules=`` (a handle, a database path or None); a path that is not a rules
            database is recorded as the error (:meth:`safely` then gives defaults for what it would list).

    Attributes:
        rules: the handle (even a bad one, so the error names its path).
        error: the first bad argument's error, or None.
    """

    def __init__(self, rules=None) -> None:
        self.error: BaseException | None = None
        self.rules = None
        try:
            self.rules = resolve_rules(rules)
            self.rules.connection()
        except (TypeError, ValueError, OSError, RulesError) as exc:
            self.fail(exc if isinstance(exc, (RulesError, ValueError)) else RulesInputError("rules", str(exc)))

    def fail(self, exc: BaseException) -> None:
        """Record ``exc`` as the error unless an earlier argument already failed."""
        if self.error is None:
            self.error = exc

    def safely(self, fn: Callable[[], Any], default: Any) -> Any:
        """``fn()`` when the rules opened, else ``default`` (the options of a database that cannot be read)."""
        if self.rules is None or (self.error is not None and not isinstance(self.error, RulesInputError)):
            return default
        try:
            return fn()
        except (RulesError, ValueError, OSError) as exc:
            self.fail(exc)
            return default

    def choice(self, field: str, value: Any, allowed: Iterable[Any], default: Any, *, what: str = "") -> Any:
        """``value`` if it is one of ``allowed``, else ``default`` and the error ``field: unknown ...;
        choose one of: ...`` (``what`` names the kind, default the field)."""
        allowed = list(allowed)
        try:
            if value in allowed:
                return value
        except TypeError:  # an unhashable or uncomparable value
            pass
        shown = ", ".join(map(str, allowed[:12])) + (", ..." if len(allowed) > 12 else "")
        self.fail(RulesInputError(field, f"unknown {what or field} {value!r:.80}; choose one of: {shown or 'none'}"))
        return default

    def seed(self, value: Any, field: str = "seed", default: int = 7) -> int:
        """``value`` if it is a whole number the seed box holds (0 to :data:`MAX_PANEL_SEED`, negatives
        down to its minus), else ``default`` and the error."""
        if isinstance(value, int) and not isinstance(value, bool) and -MAX_PANEL_SEED <= value <= MAX_PANEL_SEED:
            return value
        self.fail(RulesInputError(field, f"must be a whole number from {-MAX_PANEL_SEED} to {MAX_PANEL_SEED}, "
                                          f"got {value!r:.80}"))
        return default

    def text(self, field: str, value: Any, default: str = "") -> str:
        """``value`` if it is a string (None: ``default``), else ``default`` and the error."""
        if value is None:
            return default
        if isinstance(value, str):
            return value
        self.fail(RulesInputError(field, f"must be text (a string), got {type(value).__name__} {value!r:.80}"))
        return default

    def script(self, value: Any, field: str = "script") -> str:
        """``value`` if it is scripted dice :func:`parse_script` reads (None or ``""``: no script), else
        ``""`` and the error (the dice then roll from the seed, but the panel shows the error, not them)."""
        text = self.text(field, value)
        try:
            parse_script(text)
        except RulesInputError as exc:
            self.fail(RulesInputError(field, exc.message))
            return ""
        return text

    def ruleset(self, value: Any, ids: Iterable[str], field: str = "ruleset") -> str:
        """``value`` as one of the ruleset ``ids`` (``""`` or None: every ruleset; matched as
        :func:`ruleslawyer.rulesdb.session.match_ruleset` does: case and spacing ignored), else ``""``
        and the error naming the rulesets."""
        from ruleslawyer.rulesdb.session import match_ruleset

        try:
            return match_ruleset(value, [i for i in ids if i], field=field) or ""
        except RulesInputError as exc:
            self.fail(exc)
            return ""

    def items(self, field: str, value: Any, read: Callable[[Any, str], Any]) -> list:
        """Each item of the list ``value`` read by ``read(item, "field[i]")`` (which raises a
        ``ValueError`` or ``TypeError`` naming what is wrong); None: ``[]``. Anything else, or any
        item ``read`` refuses: ``[]`` and the error (no item kept, so nothing runs on part of it)."""
        if value is None:
            return []
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple)):
            self.fail(RulesInputError(field, f"must be a list, got {type(value).__name__} {value!r:.80}"))
            return []
        out = []
        for i, item in enumerate(value):
            try:
                out.append(read(item, f"{field}[{i}]"))
            except RulesInputError as exc:
                self.fail(exc)
                return []
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                self.fail(RulesInputError(f"{field}[{i}]", str(exc) or type(exc).__name__))
                return []
        return out

    def report(self, frame: "PanelFrame") -> bool:
        """Show the recorded error in ``frame`` (True), or do nothing (False: the panel may run)."""
        if self.error is None:
            return False
        frame.show_error(self.error)
        frame.status.value = '<span class="rl-hint">fix the argument above and run again</span>'
        return True
