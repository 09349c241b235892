"""The search panel: type-ahead search over every rule, ruleset filter, ranked hits; a click on a hit
shows the rule in context with its citation."""

from __future__ import annotations

import difflib
import re
import unicodedata

import ipywidgets as widgets

from ruleslawyer.errors import RulesInputError

from .base import PanelArgs, PanelFrame, esc, ruleset_options
from .cite import context_html

__all__ = ["SearchPanel", "MAX_HITS", "MAX_SUGGESTIONS", "MAX_EXAMPLES", "MAX_XREFS", "word_spans",
           "replace_word", "chip_queries", "BROWSE_ADVICE"]

MAX_HITS = 10
MAX_SUGGESTIONS = 6
#: Example questions offered while the box is empty (:func:`ruleslawyer.rulesdb.lookup.example_questions`).
MAX_EXAMPLES = 4
#: Cross-reference buttons under a shown rule (:func:`ruleslawyer.rulesdb.xrefs.references`).
MAX_XREFS = 8
#: What the panel suggests when nothing matches (the command line names its own commands instead).
BROWSE_ADVICE = ("Or browse: open Contents (above) for the chapters and sections, the Tables tab for the "
                 "tables, the Glossary tab for a term's definition.")
_WORD_RUN = re.compile(r"[^\s'\-\u2013]+(?:['\-\u2013][^\s'\-\u2013]+)*")


def _is_word_char(c: str) -> bool:
    return c.isalnum() or unicodedata.category(c)[0] == "M" or unicodedata.category(c) == "Co"


def _fold(word: str) -> str:
    """Lowercase, Latin accents removed (as the index folds words: ``Défense`` is ``defense``)."""
    from ruleslawyer.rulesdb.words import fold, normalize

    return fold(normalize(word))


def word_spans(query: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of the words of ``query`` as the index cuts them: runs of letters,
    digits and marks (an accent, decomposed or not, stays in its word), maybe joined by ``'`` or ``-``
    (``knock-back``); punctuation, ``*`` and spaces are not part of a word."""
    cleaned = "".join(c if c in "'-\u2013" or _is_word_char(c) else " " for c in query)
    return [m.span() for m in _WORD_RUN.finditer(cleaned)]


def replace_word(query: str, word: str, at: int = -1) -> str:
    """``query`` with its word number ``at`` (default the last; see :func:`word_spans`) replaced by
    ``word``, everything around it (punctuation, ``*``, spaces, the other words) kept:
    ``replace_word("can I parr?", "parry") == "can I parry?"``. A query with no word (or ``at`` past
    its words) gets ``word`` appended, after a space when it does not end in one."""
    spans = word_spans(query)
    try:
        start, end = spans[at]
    except IndexError:
        return query + ("" if not query or query[-1:].isspace() else " ") + word
    return query[:start] + word + query[end:]


def _closest(query: str, word: str) -> int:
    """The index of the query's word most like ``word`` (folded; ties: the later word)."""
    target = _fold(word)
    scores = [difflib.SequenceMatcher(None, _fold(query[a:b]), target).ratio() for a, b in word_spans(query)]
    return max(range(len(scores)), key=lambda i: (scores[i], i)) if scores else -1


def chip_queries(query: str, words, *, kind: str) -> list[tuple[str, str]]:
    """The suggestion chips for ``query``: ``[(word, new query), ...]``.

    ``kind="complete"``: each word completes the query's last word, and replaces it; ``"correct"``:
    each word corrects the query word most like it (:func:`difflib.SequenceMatcher`), and replaces that
    one. A word the query already holds in full (accents and case aside) gets no chip, nor does a word
    whose new query is the query itself.
    """
    if kind not in ("complete", "correct"):
        raise RulesInputError("kind", f"must be 'complete' or 'correct', got {kind!r}")
    held = {_fold(query[a:b]) for a, b in word_spans(query)}
    out: list[tuple[str, str]] = []
    for w in words:
        if _fold(w) in held:
            continue
        new = replace_word(query, w, -1 if kind == "complete" else _closest(query, w))
        if new != query and all(new != q for _w, q in out):
            out.append((w, new))
    return out


class SearchPanel:
    """Search the rules as you type; browse the contents; follow a rule's cross-references.

    Controls: ``query`` (Text, searches on every keystroke), ``ruleset`` (Dropdown; ``""`` = all; a
    choice becomes the session's default ruleset of the handle, see
    :func:`ruleslawyer.rulesdb.lookup.set_session_ruleset`), ``example_buttons`` (while the box is
    empty: the chosen ruleset's example questions, :func:`~ruleslawyer.rulesdb.lookup.example_questions`;
    a click searches it), ``contents_toggle`` (opens ``contents``: one button per section of
    :func:`~ruleslawyer.rulesdb.lookup.toc` for the chosen ruleset, indented by level, in
    ``toc_buttons``; a click shows the section), ``xref_buttons`` (under a shown rule: one per
    cross-reference in the shown text leading to another rule, :func:`ruleslawyer.rulesdb.xrefs.references`;
    a click shows that rule), ``suggestion_buttons`` (type-ahead completions of the last word from
    :func:`ruleslawyer.rulesdb.complete`, or "did you mean" words when nothing matches) and
    ``hit_buttons`` (one per ranked hit, labelled with its breadcrumb; the highlighted snippet and the
    citation id sit under it). ``run()`` calls :func:`ruleslawyer.rulesdb.search`; clicking a hit calls
    :meth:`show` which renders :func:`~ruleslawyer.widgets.cite.context_html` into ``output``.

    Args:
        query: initial query (searched at once).
        ruleset: initial ruleset filter (``""``: every ruleset).
        rules: the rules handle searched and quoted (None: the default database).

    Attributes:
        results: the last :class:`ruleslawyer.rulesdb.SearchResults` (None before the first run).
        shown: citation id of the rule shown in ``output`` (None if none).
        xrefs: the :class:`ruleslawyer.rulesdb.xrefs.Reference` s behind ``xref_buttons``.
    """

    def __init__(self, query: str = "", ruleset: str = "", *, rules=None) -> None:
        args = PanelArgs(rules)
        self.rules = args.rules
        query = args.text("query", query)
        self.query = widgets.Text(value=query, placeholder="", description="Search", continuous_update=True,
                                  layout=widgets.Layout(width="420px"))
        self.query.add_class("rl-query")
        options = args.safely(lambda: ruleset_options(self.rules), [("All rulesets", "")])
        self.ruleset = widgets.Dropdown(options=options, value=args.ruleset(ruleset, [rid for _t, rid in options]),
                                        description="Ruleset", layout=widgets.Layout(width="260px"))
        self.contents_toggle = widgets.ToggleButton(value=False, description="Contents", icon="list",
                                                    tooltip="The chosen ruleset's chapters and sections: click "
                                                            "one to read it", layout=widgets.Layout(width="auto"))
        self.contents_toggle.add_class("rl-contents-toggle")
        self.suggestion_buttons = [widgets.Button(layout=widgets.Layout(display="none", width="auto"))
                                   for _ in range(MAX_SUGGESTIONS)]
        self.suggestion_label = widgets.HTML("", layout=widgets.Layout(display="none"))
        self.suggestion_label.add_class("rl-suggestion-label")
        self._suggestion_queries: list[str] = [""] * MAX_SUGGESTIONS
        for i, b in enumerate(self.suggestion_buttons):
            b.add_class("rl-suggestion")
            b.on_click(lambda _b, i=i: self._take_suggestion(i))
        self.example_buttons = self._buttons(MAX_EXAMPLES, "rl-example", self._take_example)
        self._examples_box = widgets.HBox([widgets.HTML('<span class="rl-hint">Try:</span>'), *self.example_buttons],
                                          layout=widgets.Layout(flex_flow="row wrap", display="none"))
        self.hit_buttons = [widgets.Button(layout=widgets.Layout(width="100%")) for _ in range(MAX_HITS)]
        self.hit_snippets = [widgets.HTML("") for _ in range(MAX_HITS)]
        self._hit_boxes = []
        for i, (b, s) in enumerate(zip(self.hit_buttons, self.hit_snippets)):
            b.add_class("rl-hit-button")
            b.on_click(lambda _b, i=i: self._click_hit(i))
            box = widgets.VBox([b, s], layout=widgets.Layout(display="none"))
            box.add_class("rl-hit")
            self._hit_boxes.append(box)
        self._hits_box = hits = widgets.VBox(self._hit_boxes)
        hits.add_class("rl-hits")
        # while open, the contents take the hits' place, as tall as the window allows, scrolling
        self.contents = widgets.VBox([], layout=widgets.Layout(display="none", max_height="70vh", overflow="auto"))
        self.contents.add_class("rl-contents")
        self.toc_buttons: list[widgets.Button] = []
        self.xref_buttons = self._buttons(MAX_XREFS, "rl-xref", self._take_xref)
        self._xref_box = widgets.HBox([widgets.HTML('<span class="rl-hint">See:</span>'), *self.xref_buttons],
                                      layout=widgets.Layout(flex_flow="row wrap", display="none"))
        self._xref_box.add_class("rl-xrefs")
        self.frame = PanelFrame("Search the rules", [[self.query, self.ruleset, self.contents_toggle],
                                                     widgets.HBox([self.suggestion_label, *self.suggestion_buttons]),
                                                     self._examples_box],
                                css_class="rl-search-panel", beside=widgets.VBox([self.contents, hits]),
                                rules=self.rules)
        self._put_xrefs_under_output()
        self.output = self.frame.output
        self.status = self.frame.status
        self.widget = self.frame.widget
        self.results = None
        self.shown: str | None = None
        self.xrefs: tuple = ()
        self._toc_ids: list[str] = []
        self._toc_for: str | None = None
        self.frame.guard(self._set_examples)
        self.query.observe(lambda _c: self.run(), names="value")
        self.ruleset.observe(lambda _c: self._ruleset_changed(), names="value")
        self.contents_toggle.observe(lambda _c: self.frame.guard(self._sync_contents), names="value")
        if not args.report(self.frame):  # a bad argument: its message, not a search of something else
            self.run()

    # ------------------------------------------------------------------ actions

    def run(self) -> None:
        """Search for the query in the box (within the chosen ruleset) and list the ranked hits."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesdb import complete, search

        q = self.query.value
        self.results = None
        self._examples_box.layout.display = None if not q.strip() else "none"
        try:
            results = search(q, ruleset=self.ruleset.value or None, limit=MAX_HITS, rules=self.rules)
        except Exception:
            self._set_hits(())
            self._set_suggestions([])
            raise
        self.results = results
        self._set_hits(results.hits)
        if results.hits:
            n = len(results.hits)
            self.status.value = f'{n} hit{"s" if n != 1 else ""} for <b>{esc(q.strip()[:80])}</b>, best first'
            words = complete(q, rules=self.rules) if q and not q[-1:].isspace() else []
            self._set_suggestions(chip_queries(q, words, kind="complete"), "Complete:")
        else:
            self.status.value = f'<span class="rl-hint">{esc(self._hint(results))}</span>'
            self._set_suggestions(chip_queries(q, results.suggestions, kind="correct"), "Did you mean:")
            self.output.value = ""

    def show(self, rule_id: str) -> None:
        """Show the rule (or section) with this citation id in context (its neighbours and its
        citation), with a button for each cross-reference in the shown text that leads to another rule."""
        def go() -> None:
            self._set_xrefs(())
            self.frame.show(context_html(rule_id, rules=self.rules), summary=self._shown_summary(rule_id))
            self.shown = rule_id
            self._set_xrefs(self._shown_references(rule_id))
        self.frame.guard(go)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _buttons(n: int, css_class: str, on_click) -> list[widgets.Button]:
        out = []
        for i in range(n):
            b = widgets.Button(layout=widgets.Layout(display="none", width="auto"))
            b.add_class("rl-suggestion")
            b.add_class(css_class)
            b.on_click(lambda _b, i=i: on_click(i))
            out.append(b)
        return out

    def _put_xrefs_under_output(self) -> None:
        """The cross-reference buttons sit right under the shown rule, in the output's column."""
        split = next(w for w in self.frame.widget.children if "rl-split" in w._dom_classes)
        column = widgets.VBox([self.frame.output, self._xref_box],
                              layout=widgets.Layout(flex="2 1 320px", min_width="0"))
        split.children = (split.children[0], column)

    def _set_examples(self) -> None:
        from ruleslawyer.rulesdb.lookup import example_questions

        found = example_questions(self.ruleset.value or None, MAX_EXAMPLES)
        for i, b in enumerate(self.example_buttons):
            b.description = found[i] if i < len(found) else ""
            b.tooltip = f"Search for: {found[i]}" if i < len(found) else ""
            b.layout.display = None if i < len(found) else "none"
        self.query.placeholder = f"Ask a rules question, e.g. {found[0]}" if found else "Ask a rules question"

    def _take_example(self, i: int) -> None:
        self.query.value = self.example_buttons[i].description

    def _ruleset_changed(self) -> None:
        """The GM picked a ruleset: it becomes the session's default (later ``toc()`` and the like),
        the examples and contents follow it, and the query is searched again within it."""
        from ruleslawyer.rulesdb.lookup import set_session_ruleset

        self.frame.guard(lambda: set_session_ruleset(self.ruleset.value or None, rules=self.rules))
        chosen = self.ruleset.value
        if self.shown is not None and chosen and self.shown.split("/", 1)[0] != chosen:
            self.frame.show("", summary="")  # another ruleset's rule: not left on show
            self.shown = None
            self._set_xrefs(())
        self._set_examples()
        self.frame.guard(self._sync_contents)
        self.run()

    def _sync_contents(self) -> None:
        """Show the table of contents of the chosen ruleset while ``Contents`` is on (built when first opened)."""
        on = self.contents_toggle.value
        self.contents.layout.display = None if on else "none"
        self._hits_box.layout.display = "none" if on else None
        chosen = self.ruleset.value or None
        if not on or self._toc_for == (chosen or ""):
            return
        from ruleslawyer.rulesdb.lookup import toc

        entries = toc(chosen, rules=self.rules)
        self._toc_ids = [e.id for e in entries]
        while len(self.toc_buttons) < len(entries):
            b = widgets.Button(layout=widgets.Layout(width="auto", flex="0 0 auto", height="auto"))  # never squeezed
            b.add_class("rl-toc-entry")
            b.on_click(lambda _b, i=len(self.toc_buttons): self._take_toc(i))
            self.toc_buttons.append(b)
        names = dict((rid, title) for title, rid in self.ruleset.options)
        for b, e in zip(self.toc_buttons, entries):
            # every ruleset's contents at once: each chapter says whose it is
            b.description = e.title if chosen or e.level != 1 else f"{e.title} ({names.get(e.ruleset, e.ruleset)})"
            b.tooltip = e.id
            b.style.font_weight = "bold" if e.level == 1 else ""
            b.layout.margin = f"0 0 0 {(e.level - 1) * 18}px"
        self.contents.children = tuple(self.toc_buttons[:len(entries)])
        self._toc_for = chosen or ""

    def _take_toc(self, i: int) -> None:
        if i < len(self._toc_ids):
            self.show(self._toc_ids[i])

    def _shown_references(self, rule_id: str) -> tuple:
        """The links in every unit :func:`context_html` shows for ``rule_id``, each target once."""
        from ruleslawyer.rulesdb import context
        from ruleslawyer.rulesdb.xrefs import references

        ctx = context(rule_id, rules=self.rules)
        found = references([u.id for u in (*ctx.before, ctx.rule, *ctx.after)], rules=self.rules)
        firsts: dict[str, object] = {}
        for ref in found:
            if ref.target_id != rule_id:
                firsts.setdefault(ref.target_id, ref)
        return tuple(firsts.values())

    def _set_xrefs(self, refs: tuple) -> None:
        self.xrefs = tuple(refs)[:MAX_XREFS]
        for i, b in enumerate(self.xref_buttons):
            if i < len(self.xrefs):
                ref = self.xrefs[i]
                b.description, b.tooltip = f"{ref.text} →", f"{ref.breadcrumb} [{ref.target_id}]"
                b.layout.display = None
            else:
                b.layout.display = "none"
        self._xref_box.layout.display = None if self.xrefs else "none"

    def _take_xref(self, i: int) -> None:
        if i < len(self.xrefs):
            self.show(self.xrefs[i].target_id)

    def _shown_summary(self, rule_id: str) -> str:
        from .base import resolve_rule

        rule = resolve_rule(rule_id, self.rules)
        return f"{rule.breadcrumb} [{rule_id}]" if rule is not None else rule_id

    def _set_hits(self, hits) -> None:
        for i, box in enumerate(self._hit_boxes):
            if i < len(hits):
                h = hits[i]
                self.hit_buttons[i].description = h.breadcrumb
                self.hit_buttons[i].tooltip = h.id
                via = getattr(h, "matched_via", ())
                self.hit_snippets[i].value = (f'<div class="rl-hit-snippet">{h.snippet}</div>'
                                              f'<div class="rl-hit-id" data-rule-id="{esc(h.id)}">{esc(h.id)}</div>'
                                              + (f'<div class="rl-via">{esc("; ".join(via))}</div>' if via else "")
                                              # a hit found through its heading says so (escaped, <mark> added)
                                              + (f'<div class="rl-hit-heading">matched in the heading: '
                                                 f'{h.matched_heading}</div>' if h.matched_heading else "")
                                              # an item placed by the unit introducing its list names it
                                              # (a row: its table's header)
                                              + (f'<div class="rl-hit-heading">in the '
                                                 f'{"table" if h.kind == "row" else "list"} under: '
                                                 f'{h.listed_under}</div>' if h.listed_under else ""))
                box.layout.display = None
            else:
                box.layout.display = "none"

    def _set_suggestions(self, pairs: list[tuple[str, str]], label: str = "Did you mean:") -> None:
        """Show one chip per ``(word, new query)`` after ``label`` (``Complete:`` or ``Did you mean:``);
        each chip's tooltip is the query it searches."""
        pairs = pairs[:MAX_SUGGESTIONS]
        for i, b in enumerate(self.suggestion_buttons):
            if i < len(pairs):
                b.description, self._suggestion_queries[i] = pairs[i]
                b.tooltip = f"{label} {pairs[i][0]} (search: {pairs[i][1][:120]})"
                b.layout.display = None
            else:
                b.layout.display = "none"
        self.suggestion_label.value = f'<span class="rl-hint">{esc(label)}</span>' if pairs else ""
        self.suggestion_label.layout.display = None if pairs else "none"

    def _hint(self, results) -> str:
        """What to do when there are no hits, in the panel's terms: for an empty box, the chosen
        ruleset's example questions; else the search's own hint (context-free) and where to browse
        in the panel (Contents, the Tables and Glossary tabs)."""
        if not results.query.strip():
            from ruleslawyer.rulesdb.lookup import example_questions

            found = example_questions(self.ruleset.value or None, 2)
            eg = " or ".join(f"\u201c{q}\u201d" for q in found)
            return "Type a word or a phrase to search the rules" + (f", e.g. {eg}; or click a question below."
                                                                   if eg else ".")
        if results.suggestions:
            return results.plain_hint
        return f"{results.plain_hint} {BROWSE_ADVICE}"

    def _take_suggestion(self, i: int) -> None:
        self.query.value = self._suggestion_queries[i]

    def _click_hit(self, i: int) -> None:
        if self.results is not None and i < len(self.results.hits):
            self.show(self.results.hits[i].id)

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
