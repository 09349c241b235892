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
    heading     TEXT NOT NULL,            -- heading trail of the section (weighted in search)
    breadcrumb  TEXT NOT NULL,            -- Mastery › Combat › Death › Fighting On ¶2
    text        TEXT NOT NULL,
    table_id    TEXT,                     -- for rows: the table they belong to
    source_file TEXT NOT NULL,
    source_line INTEGER NOT NULL
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

-- Body search: stemmed, headings weighted in bm25 by the query layer. content="units" (double
-- quotes) is the form Datasette looks for; the unstemmed index below keeps single quotes so that
-- Datasette picks this one.
CREATE VIRTUAL TABLE units_fts USING fts5(
    heading, text,
    content="units", content_rowid='rowid',
    tokenize='porter unicode61 remove_diacritics 2'
);

-- Unstemmed index for type-ahead prefixes and "did you mean".
CREATE VIRTUAL TABLE units_plain_fts USING fts5(
    heading, text,
    content='units', content_rowid='rowid',
    tokenize='unicode61 remove_diacritics 2',
    prefix='2 3'
);
CREATE VIRTUAL TABLE vocab USING fts5vocab(units_plain_fts, 'row');

-- Every unstemmed vocabulary word with its Porter stem (highlighting and term matching in search).
CREATE TABLE stems (
    word TEXT PRIMARY KEY,
    stem TEXT NOT NULL
) WITHOUT ROWID;

-- Inverted index for search, one row per Porter stem: JSON [[unit rowid, hits in heading, hits in
-- text], ...]. Ranked with FTS5's bm25 formula and the same column weights.
CREATE TABLE postings (
    stem  TEXT PRIMARY KEY,
    units TEXT NOT NULL
) WITHOUT ROWID;

-- Per-unit figures for search (JSON under key "units"): {"rulesets": [...], "rows": [[rowid,
-- tokens, ruleset index, is supplement, is heading], ...]}.
CREATE TABLE search_index (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

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
