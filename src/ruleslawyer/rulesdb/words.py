"""Words as the full-text index sees them: normal form, tokens, folding and Porter stems.

Small and import-light on purpose: the query path (search, glossary lookups) needs these and
nothing else from the build-time extraction in :mod:`ruleslawyer.rulesdb.extract`.

One normal form everywhere: the build indexes the NFKC form of every source (chapters, supplements,
house rules) and a query is put in NFKC before it is cut into words, so ``se`` + U+0301 + ``ance``,
``séance``, ``ﬁght`` and ``fight`` meet; invisible characters inside a word (a zero width joiner or
space, a soft hyphen: :data:`INVISIBLE`) are removed, so ``par\u200bry`` meets ``parry``. The index's tokenizer counts letters, digits, marks and
private-use characters as word characters (``categories 'L* N* Co M*'``), so a word of any script
— ``हिन्दी`` with its vowel signs — is one token, matched and highlighted whole; :func:`query_tokens`
cuts a query the same way.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
import unicodedata
from collections.abc import Iterable, Mapping

__all__ = ["COMMON_WORD_FREQUENCY", "HEADING_WEIGHT", "INVISIBLE", "LEAD_IN_WEIGHT", "NEGATIONS", "STOPWORDS", "TOKENIZER",
           "TRAIL_WEIGHT", "WORD_RE", "common_english", "fold", "normalize", "porter_stems", "query_tokens"]

#: bm25 weights of the title of a unit's own section, of the titles above it and of an item's lead-in
#: (the unit introducing its list; a row's: its table's header), relative to the body (1.0); stored as the index's rank.
HEADING_WEIGHT = 4.0
TRAIL_WEIGHT = 2.0
LEAD_IN_WEIGHT = 2.0

#: The FTS5 tokenizer of the body index (``schema.sql`` spells the same string).
TOKENIZER = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'"

#: One token of folded ASCII-or-Latin text: a run of letters and digits (see :func:`query_tokens`
#: for text of any script).
WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)

#: Words a question is made of rather than what it asks about; dropped from a query when anything
#: else is left ("how many AP do I get" searches "AP").
STOPWORDS = frozenset("""
a an and are as at be by can could do does did for from had has have how i if in into is it its me my
of on or so that the their them then there these they this to was we what when where which who
whom why will with you your yours would should shall may might must am been being get gets got
happens happen happened each many much any our us he she his her him someone something anything
does doesnt don't dont cant can't i'm im ive i've there's theres tell explain rule rules one ones
also just really whats hows whos wheres u ur w
""".split())

# A query word: letters, digits and marks, joined by apostrophes or hyphens, maybe ending in "*".
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['\-][A-Za-z0-9]+)*\*?")
_ANY_TOKEN = re.compile(r"[^\s'\-–*]+(?:['\-–][^\s'\-–*]+)*\*?")
_JOINERS = "'-–*"


#: Invisible characters that may sit inside a word (pasted from a web page or a PDF) and are removed
#: before indexing and matching: zero width space, non-joiner and joiner, word joiner, the
#: byte-order mark (zero width no-break space) and the soft hyphen.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_DROP_INVISIBLE = dict.fromkeys(map(ord, INVISIBLE))


def normalize(text: str) -> str:
    """``text`` in Unicode NFKC without the invisible characters of :data:`INVISIBLE`: the one form
    sources, house rules and queries are indexed and matched in (``par\u200dry`` is ``parry``)."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", text.translate(_DROP_INVISIBLE))


def _word_char(c: str) -> bool:
    if c.isalnum():
        return True
    cat = unicodedata.category(c)
    return cat[0] == "M" or cat == "Co"


def query_tokens(text: str) -> list[str]:
    """The words of (normalised) ``text`` as the index cuts them, each maybe joined by ``'`` or ``-``
    to the next (``knock-back``, ``attacker's``) and maybe ending in ``*`` (a prefix).

    A word is a run of letters, digits, marks and private-use characters (the tokenizer's
    categories), so a decomposed accent or a vowel sign never splits a word.
    """
    if text.isascii():
        return _ASCII_TOKEN.findall(text)
    cleaned = "".join(c if c in _JOINERS or _word_char(c) else " " for c in text)
    return _ANY_TOKEN.findall(cleaned)


def fold(word: str) -> str:
    """Lowercase and strip accents from Latin letters, as ``unicode61 remove_diacritics 2`` does
    (``Séance`` → ``seance``); the marks of other scripts are part of their words and stay
    (``हिन्दी``)."""
    if word.isascii():
        return word.lower()
    decomposed = unicodedata.normalize("NFKD", word.lower())
    kept = []
    on_latin = False  # whether the marks read now sit on a Latin letter (the letter before them)
    for c in decomposed:  # one pass: a run of marks is judged by the letter it follows
        if unicodedata.combining(c):
            if on_latin:
                continue
        else:
            on_latin = c.isascii()
        kept.append(c)
    return unicodedata.normalize("NFC", "".join(kept))


#: Ways of saying "not": each becomes the word ``not``, in a question before synonyms are looked up
#: and in the synonym data's terms ("no ap left" is the key "not ap left").
NEGATIONS = frozenset("""
don't dont doesn't doesnt didn't didnt won't wont isn't isnt aren't arent wasn't wasnt weren't
haven't havent hasn't hasnt never without no not nor can't cant cannot couldn't couldnt shouldn't
mustn't
""".split())


_STEMMER: sqlite3.Connection | None = None
_STEMMER_LOCK = threading.Lock()
#: Stems computed so far (a word's stem is the word's own): a process building several databases,
#: or compiling many queries, stems each word once. Emptied when it holds this many words.
STEM_MEMO_WORDS = 200_000
_STEM_MEMO: dict[str, str | None] = {}


def porter_stems(words: Iterable[str]) -> dict[str, str]:
    """Porter stems of single words, computed by SQLite's own ``porter`` tokenizer.

    Args:
        words: words (each should be one token; a word that splits into several tokens maps to
            its first token's stem, one that yields no token is left out).

    Returns:
        ``{folded word: stem}``.
    """
    global _STEMMER
    wanted = {fold(w) for w in words if w}
    memo = _STEM_MEMO
    found = {w: memo[w] for w in wanted if w in memo}  # None: the word yields no token
    folded = sorted(wanted - found.keys())
    if folded:
        with _STEMMER_LOCK:
            if _STEMMER is None:
                conn = sqlite3.connect(":memory:", check_same_thread=False)
                conn.execute(f'CREATE VIRTUAL TABLE s USING fts5(w, tokenize="{TOKENIZER}")')
                conn.execute("CREATE VIRTUAL TABLE sv USING fts5vocab(s, instance)")
                _STEMMER = conn
            conn = _STEMMER
            with conn:
                conn.execute("DELETE FROM s")
                conn.executemany("INSERT INTO s(rowid, w) VALUES (?, ?)", enumerate(folded, 1))
                rows = conn.execute("SELECT doc, term FROM sv WHERE offset = 0").fetchall()
                conn.execute("DELETE FROM s")
            got = {folded[doc - 1]: term for doc, term in rows}
            if len(memo) + len(folded) > STEM_MEMO_WORDS:
                memo.clear()
            for w in folded:
                found[w] = memo[w] = got.get(w)
    return {w: stem for w, stem in found.items() if stem is not None}


#: A word an English word list counts at least this often (pyspellchecker's English frequencies) is a
#: word in its own right, not a misspelling: "lake", "road", "safe", "digging" (25,413, 120,540,
#: 217,216, 29,419); misspellings count 0 ("sheild", "traumma") and rare names little ("acton": 50).
COMMON_WORD_FREQUENCY = 200


@functools.cache
def _english_frequencies() -> Mapping[str, int]:
    try:  # about 0.1 s: loaded only when a query has a word to correct
        from spellchecker import SpellChecker
    except ImportError:  # installed without its dependencies: no word is known to be common
        return {}
    return SpellChecker(language="en", distance=1).word_frequency.dictionary


def common_english(word: str) -> bool:
    """Whether ``word`` (lower case) is a common English word (:data:`COMMON_WORD_FREQUENCY`): a word the
    rules never use but a GM may well mean ("the fight is on a frozen lake"), which spelling correction
    leaves alone instead of turning it into a rules word ("like"). False for every word where the
    ``pyspellchecker`` package (a dependency) is missing: spelling is then corrected as if no word were."""
    return _english_frequencies().get(word, 0) >= COMMON_WORD_FREQUENCY
