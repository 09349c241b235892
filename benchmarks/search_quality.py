"""Search quality and speed: the kit's search against a raw-FTS5 baseline on the same database.

Quality: the GM questions in ``tests/search_quality/questions.json`` (natural wording, expected rule
ids chosen by reading the rules). For each question, the rank of the first expected id among the
top 10 gives MRR; Recall@3 is the share of questions with an expected id in the top 3.

Baseline: the question's words, each quoted, joined with ``OR`` (a plain ``AND`` finds nothing for
most questions) and ranked by FTS5 ``ORDER BY rank`` on the same index, with the same ruleset filter.

Speed: median time per query, in process, of ``ruleslawyer.rulesdb.search`` next to a raw FTS5
``MATCH … ORDER BY rank LIMIT 10`` returning id and text, over the same queries in the same run.

Run: ``python benchmarks/search_quality.py [--json]``.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "tests" / "search_quality" / "questions.json"
HOLDOUT = ROOT / "tests" / "search_quality" / "holdout.json"

#: Twenty typical GM queries for the speed figure (the same list as bench_rulesdb.py).
GM_QUERIES = [
    "parry", "fighting on", "trauma", "flanking", "initiative", "dying", "ambush", "startle",
    "special effects", "hit location", "weapon length", "counterattack", "reprisal attack",
    "armor resistance", "durability", "charge", "evade", "aiming trial", "dashing attack", "triage",
]

__all__ = ["Quality", "load_questions", "kit_ranking", "baseline_ranking", "evaluate", "speed", "main"]


@dataclass(frozen=True)
class Quality:
    """MRR (first expected id within the top 10) and Recall@3 over a question set."""

    name: str
    mrr: float
    recall_at_3: float
    questions: int
    misses: tuple[str, ...]

    def to_dict(self) -> dict:
        return asdict(self)


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    """The question records: ``{"q", "ruleset", "expected": [ids]}``."""
    return json.loads(path.read_text(encoding="utf-8"))["questions"]


def kit_ranking(question: str, ruleset: str | None, db=None, k: int = 10) -> list[str]:
    """Ids the kit's search returns for a question, best first."""
    from ruleslawyer.rulesdb import search

    return [h.id for h in search(question, ruleset=ruleset, limit=k, db=db)]


def baseline_ranking(question: str, ruleset: str | None, db=None, k: int = 10) -> list[str]:
    """Ids a raw FTS5 query returns: every word quoted, OR-ed, ``ORDER BY rank``."""
    from ruleslawyer.rulesdb import connect
    from ruleslawyer.rulesdb.extract import WORD_RE

    words = WORD_RE.findall(question.lower())
    if not words:
        return []
    expr = " OR ".join('"' + w + '"' for w in words)
    sql = ("SELECT u.id FROM units_fts JOIN units u ON u.rowid = units_fts.rowid WHERE units_fts MATCH ?"
           + (" AND u.ruleset = ?" if ruleset else "") + " ORDER BY rank LIMIT ?")
    params = (expr, ruleset, k) if ruleset else (expr, k)
    return [r[0] for r in connect(db).execute(sql, params)]


def evaluate(name: str, ranking, questions: list[dict], db=None) -> Quality:
    """MRR@10 and Recall@3 of ``ranking(question, ruleset, db)`` over ``questions``."""
    rr, top3, misses = [], 0, []
    for q in questions:
        ids = ranking(q["q"], q.get("ruleset"), db)
        expected = set(q["expected"])
        rank = next((i for i, x in enumerate(ids[:10], 1) if x in expected), None)
        rr.append(1.0 / rank if rank else 0.0)
        if rank and rank <= 3:
            top3 += 1
        else:
            misses.append(q["q"])
    n = len(questions) or 1
    return Quality(name, round(sum(rr) / n, 4), round(top3 / n, 4), len(questions), tuple(misses))


def _median_per_query(fn, queries, runs: int = 7, inner: int = 20) -> float:
    for q in queries:
        fn(q)
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(inner):
            for q in queries:
                fn(q)
        samples.append((time.perf_counter() - t0) / (inner * len(queries)))
    return statistics.median(samples)


def speed(db=None, queries: list[str] | None = None) -> dict:
    """Median seconds per query: the kit's search and a raw FTS5 query, same run, same db."""
    from ruleslawyer.rulesdb import connect, search

    queries = queries or GM_QUERIES
    conn = connect(db)
    raw_sql = ("SELECT u.id, u.text FROM units_fts JOIN units u ON u.rowid = units_fts.rowid "
               "WHERE units_fts MATCH ? ORDER BY rank LIMIT 10")
    snip_sql = ("SELECT u.id, u.text, snippet(units_fts, 1, '<mark>', '</mark>', '…', 32) FROM units_fts "
                "JOIN units u ON u.rowid = units_fts.rowid WHERE units_fts MATCH ? ORDER BY rank LIMIT 10")
    kit = _median_per_query(lambda q: search(q, limit=10, db=db), queries)
    raw = _median_per_query(lambda q: conn.execute(raw_sql, (q,)).fetchall(), queries)
    snip = _median_per_query(lambda q: conn.execute(snip_sql, (q,)).fetchall(), queries)
    return {"kit_s": kit, "raw_fts5_s": raw, "ratio": kit / raw if raw else float("nan"),
            "raw_fts5_snippet_s": snip, "ratio_vs_snippet": kit / snip if snip else float("nan")}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    db = os.environ.get("RULESLAWYER_DB")
    if not db:
        from ruleslawyer.rulesdb import build

        db = str(Path(tempfile.mkdtemp(prefix="rl-quality-")) / "rules.db")
        build(db)
    questions = load_questions()
    holdout = load_questions(HOLDOUT)
    kit = evaluate("kit search", kit_ranking, questions, db)
    base = evaluate("raw FTS5 (words OR-ed, ORDER BY rank)", baseline_ranking, questions, db)
    kit_h = evaluate("kit search (held out)", kit_ranking, holdout, db)
    base_h = evaluate("raw FTS5 (held out)", baseline_ranking, holdout, db)
    timing = speed(db)
    if "--json" in argv:
        print(json.dumps({"kit": kit.to_dict(), "baseline": base.to_dict(), "kit_holdout": kit_h.to_dict(),
                          "baseline_holdout": base_h.to_dict(), "speed": timing}, indent=2))
        return 0
    print(f"{len(questions)} GM questions (questions.json) and {len(holdout)} held out (holdout.json)")
    print(f"{'':42} {'MRR@10':>7} {'Recall@3':>9}")
    for q in (kit, base, kit_h, base_h):
        print(f"{q.name:42} {q.mrr:7.3f} {q.recall_at_3:9.3f}")
    print(f"in-process search {timing['kit_s'] * 1e6:.0f} µs/query vs raw FTS5 "
          f"{timing['raw_fts5_s'] * 1e6:.0f} µs/query: {timing['ratio']:.2f}x (20 GM queries, medians)")
    print(f"  (raw FTS5 with snippet(): {timing['raw_fts5_snippet_s'] * 1e6:.0f} µs/query; "
          f"kit / that = {timing['ratio_vs_snippet']:.2f}x)")
    for q in (kit, kit_h):
        if q.misses:
            print(f"{q.name} misses (no expected id in the top 3):")
            for m in q.misses:
                print(f"  - {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
