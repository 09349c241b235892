"""Search quality on the held-out half of the blind question set, which nobody tunes on.

The questions (``tests/search_quality/blind/heldout.jsonl``) were written and judged by readers who
never saw the search code or the synonym data; the scorer is ``benchmarks/search_blind.py`` (MRR@10
of the first id graded 2, Recall@3, nDCG@10, each question searched with its own ruleset). This
test only reads the aggregate figures: it prints them per ruleset (``pytest -s`` shows them) for
the kit and for raw FTS5 on the same database, and fails below Recall@3 0.85 or MRR@10 0.75.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("search_blind", ROOT / "benchmarks" / "search_blind.py")
sb = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("search_blind", sb)
_spec.loader.exec_module(sb)

MIN_RECALL_AT_3 = 0.85
MIN_MRR_AT_10 = 0.75


@pytest.fixture(scope="module")
def figures(tmp_path_factory, shipped_db):
    from ruleslawyer.rulesdb import open_rules

    db = shipped_db(tmp_path_factory.mktemp("blind") / "rules.db")
    return sb.report(open_rules(db), "heldout")


def test_held_out_figures_meet_the_bar(figures):
    print()
    print(f"{'held out':18} {'MRR@10':>7} {'Recall@3':>9} {'nDCG@10':>8}")
    for label in ("kit", "fts5"):
        for group, s in figures[label].items():
            print(f"{label + ' ' + group:18} {s.mrr_at_10:7.3f} {s.recall_at_3:9.3f} {s.ndcg_at_10:8.3f}")
    kit, raw = figures["kit"]["all"], figures["fts5"]["all"]
    assert kit.questions >= 100
    assert kit.recall_at_3 >= MIN_RECALL_AT_3, f"Recall@3 {kit.recall_at_3} on the held-out half"
    assert kit.mrr_at_10 >= MIN_MRR_AT_10, f"MRR@10 {kit.mrr_at_10} on the held-out half"
    assert kit.mrr_at_10 > raw.mrr_at_10 and kit.ndcg_at_10 > raw.ndcg_at_10


def test_every_ruleset_is_scored(figures):
    # each ruleset's questions are a third of the set or so, and each is scored on its own
    kit = figures["kit"]
    assert set(kit) == {"all", "mastery", "mythras", "darkmaster"}
    assert sum(kit[r].questions for r in ("mastery", "mythras", "darkmaster")) == kit["all"].questions
    assert all(kit[r].questions >= 30 for r in ("mastery", "mythras", "darkmaster"))


def test_score_counts_ranks_as_written():
    # Two questions: the first finds a grade-2 id at rank 2 (RR 1/2, in the top 3) with a grade-1 id
    # first; the second finds nothing graded 2 in its top 10 (RR 0, a miss).
    # MRR = (0.5 + 0) / 2 = 0.25; Recall@3 = 1/2.
    # nDCG: q1 gains [1, 2] -> DCG = 1/log2(2) + 2/log2(3) = 1 + 1.2619 = 2.2619, ideal [2, 1] -> 2 + 0.6309
    # = 2.6309, ratio 0.8597; q2 gains [0] -> 0. Mean 0.4299.
    qs = [{"q": "a", "ruleset": "mastery", "kind": "short", "relevant": {"x": 2, "w": 1}},
          {"q": "b", "ruleset": "mastery", "kind": "short", "relevant": {"y": 2}}]
    rankings = {"a": ["w", "x"], "b": ["z"]}
    s = sb.score(lambda q, ruleset: rankings[q], qs, "all")
    assert (s.mrr_at_10, s.recall_at_3, s.ndcg_at_10) == (0.25, 0.5, 0.4299)
    assert len(s.misses) == 1 and s.misses[0].startswith("[mastery/short] b")
