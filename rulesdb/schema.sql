-- ruleslawyer rules database. A build product: rebuilt from the Markdown sources.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE chapters (
    ruleset       TEXT NOT NULL,
    chapter       TEXT NOT NULL,
    ruleset_title TEXT NOT NULL,
    title         TEXT NOT NULL,
    kind          TEXT NOT NULL,          -- chapter | supplement | house-rules
    provenance    TEXT NOT NULL,
    source_file   TEXT NOT NULL,
    PRIMARY KEY (ruleset, chapter)
);

CREATE TABLE sections (
    id      TEXT PRIMARY KEY,             -- mastery/combat/death/fighting-on
    ruleset TEXT NOT NULL,
    chapter TEXT NOT NULL,
    parent  TEXT,                         -- enclosing section id, NULL for the chapter itself
    title   TEXT NOT NULL,
    level   INTEGER NOT NULL,             -- 1 for the chapter, 2.. for headings
    ord     INTEGER NOT NULL
);

-- Every citable unit: headings, paragraphs, list items and table rows.
CREATE TABLE units (
    rowid       INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,     -- mastery/combat/death/fighting-on#2
    ruleset     TEXT NOT NULL,
    chapter     TEXT NOT NULL,
    section     TEXT NOT NULL,            -- section id the unit belongs to
    kind        TEXT NOT NULL,            -- heading | paragraph | item | row
    ord         INTEGER NOT NULL,         -- document order within the whole database
    depth       INTEGER NOT NULL,         -- list nesting depth (0 outside lists)
    heading     TEXT NOT NULL,            -- searched: the title of the unit's own section (Fighting On;
                                          -- a row adds its table's title), NFKC
    breadcrumb  TEXT NOT NULL,            -- Mastery › Combat › Death › Fighting On ¶2
    text        TEXT NOT NULL,            -- verbatim
    table_id    TEXT,                     -- for rows: the table they belong to
    source_file TEXT NOT NULL,
    source_line INTEGER NOT NULL,
    body        TEXT NOT NULL DEFAULT '', -- searched: the text in NFKC (a row without its link-only
                                          -- cells, which point at a rule rather than state one)
    trail       TEXT NOT NULL DEFAULT '', -- searched: the titles of the sections above it (Death), NFKC
    lead_in     TEXT NOT NULL DEFAULT ''  -- searched: for an item of a list, the body of the unit
                                          -- introducing the list ("All basic actions cost 1 AP:"); for
                                          -- a row, its table's header ("Action Type · AP Cost · Notes"), NFKC
);
CREATE INDEX units_section ON units(section, ord);
CREATE INDEX units_ruleset ON units(ruleset, ord);

CREATE TABLE rule_tables (
    id          TEXT PRIMARY KEY,         -- mastery/combat/tables/trauma
    ruleset     TEXT NOT NULL,
    chapter     TEXT NOT NULL,
    section     TEXT NOT NULL,
    name        TEXT NOT NULL,
    title       TEXT NOT NULL,
    columns     TEXT NOT NULL,            -- JSON list of header cells
    dice        TEXT,                     -- dice expression of a rollable table, else NULL
    sides       INTEGER,                  -- faces of that die (d100 -> 100)
    source_file TEXT NOT NULL,
    source_line INTEGER NOT NULL
);

CREATE TABLE table_rows (
    table_id  TEXT NOT NULL,
    row_index INTEGER NOT NULL,           -- 1-based
    unit_id   TEXT NOT NULL,
    cells     TEXT NOT NULL,              -- JSON list, one string per column
    low       INTEGER,                    -- rollable tables: first face covered
    high      INTEGER,                    -- rollable tables: last face covered
    PRIMARY KEY (table_id, row_index)
);

CREATE TABLE refs (
    from_id   TEXT NOT NULL,              -- the unit holding the link
    target_id TEXT NOT NULL,              -- a section, unit or table id
    text      TEXT NOT NULL
);

-- Body search: stemmed; ranked by bm25 with the section title, the titles above it and an item's
-- lead-in weighted above the body (the weights are the index's default rank). The text indexed is
-- NFKC (the `heading`, `body`, `trail` and `lead_in` columns), and a word of any script is one token
-- (letters, digits, marks). content="units" (double quotes) is the form Datasette looks for; the
-- unstemmed index below keeps single quotes so that Datasette picks this one.
CREATE VIRTUAL TABLE units_fts USING fts5(
    heading, body, trail, lead_in,
    content="units", content_rowid='rowid',
    tokenize="porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
);

-- Unstemmed index: the vocabulary for type-ahead and "did you mean".
CREATE VIRTUAL TABLE units_plain_fts USING fts5(
    heading, body, trail,
    content='units', content_rowid='rowid',
    tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
);
CREATE VIRTUAL TABLE vocab USING fts5vocab(units_plain_fts, 'row');

-- What a query reads instead of compiling it (ruleslawyer.rulesdb.search), written by the build:

-- Every word of the rules (as the unstemmed index folds it) and of the synonym data, with its
-- Porter stem and the number of units holding that stem (0: only the synonym data has it).
CREATE TABLE words (
    word  TEXT PRIMARY KEY,
    stem  TEXT NOT NULL,
    docs  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX words_stem ON words(stem);   -- a stem's words: what a snippet marks

-- The synonym data (rulesdb/synonyms/common.json and each registered ruleset's file), compiled:
-- what a GM types, as Porter stems, and the book's phrases to search for it.
CREATE TABLE synonyms (
    scope   TEXT NOT NULL,                -- '' for every ruleset, else the ruleset id; '=' for the
                                          -- rules' -ly words the stemmer keeps apart from their base
                                          -- ('success' -> ["successfully"]), matched as typed
    key     TEXT NOT NULL,                -- stems of the typed words: 'attack of opportun'
    content INTEGER NOT NULL,             -- 1: the key without its question words ('order phase')
    phrases TEXT NOT NULL,                -- the book's phrases, tab-separated: 'reprisal attack'
    weight  REAL NOT NULL,                -- how much the typed words weigh in a question (0-1]
    PRIMARY KEY (scope, content, key)
) WITHOUT ROWID;

-- Per unit, what the search policy weighs besides bm25.
CREATE TABLE search_units (
    rowid   INTEGER PRIMARY KEY,          -- units.rowid
    ruleset TEXT NOT NULL,
    kind    INTEGER NOT NULL,             -- 0 chapter or house rules, 1 supplement row, 2 supplement prose
    title   INTEGER NOT NULL,             -- 1: a heading unit (its text is a section title)
    number  INTEGER NOT NULL,             -- 1: its text states a number or a die (1d20, 1–3, three)
    ascii   INTEGER NOT NULL,             -- 1: every word of its searched columns is ASCII (a snippet
                                          -- is marked in Python; else by FTS5's snippet())
    lead    INTEGER NOT NULL,             -- 1: the first unit under its section's heading (its opening)
    items   INTEGER NOT NULL DEFAULT 0,   -- a sentence introducing a list ("When you reach 0 health:"):
                                          -- how many units follow it up to the list's last item (nested
                                          -- items included; 0 for any other unit)
    intro   INTEGER NOT NULL DEFAULT 0    -- a table's row: the rowid of the paragraph introducing its
                                          -- table (right before its first row, in its section), else 0
);

-- Terms the units define (the glossary's labels and defining sentences), by the stems of the term:
-- a unit defining the words a query asks about ranks first.
CREATE TABLE labels (
    key    TEXT NOT NULL,                 -- the defined term's distinct stems, sorted: 'evad', 'attack repris'
    rowid  INTEGER NOT NULL,              -- the defining unit
    strong INTEGER NOT NULL,              -- 1: a chapter's (or house rules') definition; 0: the kit's
                                          -- supplement defining a term no chapter of its ruleset does
    PRIMARY KEY (key, rowid)
) WITHOUT ROWID;

-- What a unit counts: the stem of the word right after each number it states ("a nine-phase list":
-- 'phase'; "costs 2 AP": 'ap'); a question asking how many of a thing prefers the units counting it.
CREATE TABLE counted (
    stem   TEXT NOT NULL,
    rowid  INTEGER NOT NULL,
    PRIMARY KEY (stem, rowid)
) WITHOUT ROWID;

-- The rows of a table read by a number, not rolled: every first cell a number or a range of them
-- ("6–10", "≤5", "5+"), as the "STR+SIZ" column of Damage Modifier or the "Tier" column of Tier dice.
-- A question giving the number with the column's or the table's name ("STR+SIZ 74") finds its row.
CREATE TABLE table_keys (
    rowid  INTEGER PRIMARY KEY,           -- units.rowid of the row
    low    INTEGER NOT NULL,              -- the first number its first cell covers ("≤5": 0)
    high   INTEGER NOT NULL               -- the last ("5+": 999999999)
);

-- Section titles by their folded words: a query naming a section ("fighting on") finds the units
-- under it as if they held its words.
CREATE TABLE titles (
    key   TEXT NOT NULL,                  -- folded words of the title: 'fighting on'
    rowid INTEGER NOT NULL,               -- the section's heading unit
    last  INTEGER NOT NULL,               -- the last unit of the section and its subsections
    PRIMARY KEY (key, rowid)
) WITHOUT ROWID;

-- Terms the sources define: "Engaged: ...", "Durability. Durability is ...", "A Round (rnd) is ...".
CREATE TABLE glossary (
    key     TEXT NOT NULL,                -- folded lookup key: "engaged", "action points", "ap"
    ruleset TEXT NOT NULL,
    unit_id TEXT NOT NULL,                -- the defining unit
    term    TEXT NOT NULL,                -- the term as written
    style   TEXT NOT NULL,                -- label | sentence | abbreviation
    PRIMARY KEY (key, ruleset, unit_id)
);

-- Cross-references: Markdown links and references written in prose ("see Magic Mastery, Spell Speed").
CREATE TABLE xrefs (
    from_id   TEXT NOT NULL,              -- the unit holding the reference
    text      TEXT NOT NULL,              -- the reference as written
    target_id TEXT,                       -- a section or table id; NULL when dangling
    status    TEXT NOT NULL,              -- link | resolved | dangling
    reason    TEXT NOT NULL
);
CREATE INDEX xrefs_from ON xrefs(from_id);
