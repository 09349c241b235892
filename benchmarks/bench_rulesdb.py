"""Rules database figures: build time, in-process search vs raw FTS5, CLI cold start vs bare Python."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from harness import Row, bytecode_env, interleaved, scratch

#: Twenty questions a GM types mid-session (plain words so the raw FTS5 baseline accepts them too).
GM_QUERIES = [
    "parry", "fighting on", "trauma", "flanking", "initiative", "dying", "ambush", "startle",
    "special effects", "hit location", "weapon length", "counterattack", "reprisal attack",
    "armor resistance", "durability", "charge", "evade", "aiming trial", "dashing attack", "triage",
]


def run() -> list[Row]:
    from ruleslawyer import rulesdb
    from ruleslawyer.rulesdb.build import build

    tmp = scratch("rl-bench-")
    db = tmp / "rules.db"
    build(db)
    copies = iter(range(1_000_000))

    def vacuum_into():
        # Reference for the build: SQLite writing the same database (tables and FTS indexes) to a new
        # file, the least any build of this database must write.
        with sqlite3.connect(db) as src:
            src.execute("VACUUM INTO ?", (str(tmp / f"copy-{next(copies)}.db"),))

    t = interleaved({"build": lambda: build(db), "copy": vacuum_into}, runs=5, clock=time.perf_counter)
    build_s, copy_s = t["build"], t["copy"]
    size_kb = db.stat().st_size / 1024

    rulesdb.reset_cache()
    conn = rulesdb.connect(db)

    def kit():
        for q in GM_QUERIES:
            rulesdb.search(q, limit=10, db=db)

    def raw():
        for q in GM_QUERIES:
            conn.execute("SELECT u.id, u.text FROM units_fts JOIN units u ON u.rowid = units_fts.rowid "
                         "WHERE units_fts MATCH ? ORDER BY rank LIMIT 10", (q,)).fetchall()

    def raw_snippet():
        for q in GM_QUERIES:
            conn.execute("SELECT u.id, u.text, snippet(units_fts, 1, '<mark>', '</mark>', '…', 32) "
                         "FROM units_fts JOIN units u ON u.rowid = units_fts.rowid "
                         "WHERE units_fts MATCH ? ORDER BY bm25(units_fts, 2.0, 1.0) LIMIT 10", (q,)).fetchall()

    # In turns, CPU time of this process: the loops are in-process and single-threaded.
    t = interleaved({"kit": lambda: [kit() for _ in range(5)], "raw": lambda: [raw() for _ in range(5)],
                     "snip": lambda: [raw_snippet() for _ in range(5)]})
    kit_s, raw_s, snip_s = (t[k] / 5 / len(GM_QUERIES) for k in ("kit", "raw", "snip"))

    cli = Path(sys.executable).with_name("ruleslawyer")

    def starts(env):
        env = {**env, "RULESLAWYER_DB": str(db)}
        return interleaved({
            "cli": lambda: subprocess.run([str(cli), "search", "parry"], env=env, check=True, capture_output=True),
            "bare": lambda: subprocess.run([sys.executable, "-c", "import sqlite3"], env=env, check=True,
                                           capture_output=True)}, runs=11, clock=time.perf_counter)

    warm = starts(bytecode_env())
    nocache = starts({**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(tmp / "none")})
    return [
        Row("db build", build_s * 1e3, "ms", "SQLite writing the same database (VACUUM INTO)", copy_s * 1e3,
            note=f"parse, validate and index every Markdown source, then write {size_kb:,.0f} KiB; "
                 "wall clock, build and copy in turns"),
        Row("in-process search, per query (20 GM queries)", kit_s * 1e3, "ms",
            "raw FTS5 MATCH … ORDER BY rank", raw_s * 1e3, goal="<= 1.2x",
            note="CPU time of this process, kit and raw loops timed in turns; the raw query returns id and "
                 "text only (no snippet, no breadcrumb, no synonyms or spelling help)"),
        Row("in-process search, per query (20 GM queries)", kit_s * 1e3, "ms",
            "raw FTS5 with snippet() and heading-weighted bm25", snip_s * 1e3,
            note="the same loop against FTS5 doing the snippet and weighting work in C"),
        Row("`ruleslawyer search parry` cold start", warm["cli"] * 1e3, "ms",
            "`python -c \"import sqlite3\"`", warm["bare"] * 1e3, goal="<= 2x",
            note="wall clock, medians of 11, the two commands in turns, bytecode caches on (as after pip install; "
                 "filled by the warm-up); without bytecode caches (PYTHONDONTWRITEBYTECODE=1, how this "
                 f"machine's shells run Python) {nocache['cli'] * 1e3:.0f} ms vs {nocache['bare'] * 1e3:.0f} ms "
                 f"= {nocache['cli'] / nocache['bare']:.2f}x"),
    ]
