"""What the search coverage tests (test_search_coverage_<ruleset>.py) share: a case's question and
answers, the first three hits, and a ruleset's unit ids."""

from __future__ import annotations

from ruleslawyer.rulesdb import search


def question(case) -> str:
    """The question of a ``(question, answers)`` case or of its ``pytest.param``."""
    return case.values[0] if hasattr(case, "values") else case[0]


def answers(case) -> tuple[str, ...]:
    """The answering unit ids of a ``(question, answers)`` case or of its ``pytest.param``."""
    return tuple(case.values[1] if hasattr(case, "values") else case[1])


def top_three(text: str, ruleset: str, rules) -> list[str]:
    """The ids of the first three hits for ``text`` with ``ruleset`` selected."""
    return [h.id for h in search(text, ruleset=ruleset, limit=3, rules=rules)]


def unit_ids(rules, ruleset: str) -> tuple[set[str], set[str]]:
    """``(ids of the ruleset's units that are not headings, ids of its headings)``."""
    units, headings = set(), set()
    for uid, kind in rules.connection().execute("SELECT id, kind FROM units WHERE ruleset = ?", (ruleset,)):
        (headings if kind == "heading" else units).add(uid)
    return units, headings
