"""Words as the full-text index sees them: tokens, folding and Porter stems.

Small and import-light on purpose: the query path (search, glossary lookups) needs these and
nothing else from the build-time extraction in :mod:`ruleslawyer.rulesdb.extract`.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from collections.abc import Iterable

__all__ = ["HEADING_WEIGHT", "WORD_RE", "fold", "porter_stems"]

#: bm25 weight of the heading column relative to the body (1.0); stored as the index's rank.
HEADING_WEIGHT = 4.0

#: One token as FTS5's unicode61 tokenizer sees it: a run of letters and digits.
WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)


def fold(word: str) -> str:
    """Lowercase and strip accents, as ``unicode61 remove_diacritics 2`` does."""
    if word.isascii():
        return word.lower()
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_STEMMER: sqlite3.Connection | None = None
_STEMMER_LOCK = threading.Lock()


def porter_stems(words: Iterable[str]) -> dict[str, str]:
    """Porter stems of single words, computed by SQLite's own ``porter`` tokenizer.

    Args:
        words: words (each should be one token; a word that splits into several tokens maps to
            its first token's stem, one that yields no token is left out).

    Returns:
        ``{folded word: stem}``.
    """
    global _STEMMER
    folded = sorted({fold(w) for w in words if w})
    if not folded:
        return {}
    with _STEMMER_LOCK:
        if _STEMMER is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False)
            conn.execute("CREATE VIRTUAL TABLE s USING fts5(w, tokenize='porter unicode61 remove_diacritics 2')")
            conn.execute("CREATE VIRTUAL TABLE sv USING fts5vocab(s, instance)")
            _STEMMER = conn
        conn = _STEMMER
        with conn:
            conn.execute("DELETE FROM s")
            conn.executemany("INSERT INTO s(rowid, w) VALUES (?, ?)", enumerate(folded, 1))
            rows = conn.execute("SELECT doc, term FROM sv WHERE offset = 0").fetchall()
            conn.execute("DELETE FROM s")
    return {folded[doc - 1]: term for doc, term in rows}
