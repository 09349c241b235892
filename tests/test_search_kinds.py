"""Each kind of search miss, fixed as a kind: one example of each, written for these tests (none is
a question of the blind set).

Kinds: quantity questions, one GM word for several book words (and one ruleset drowning another),
situations and concepts, paraphrase, noise from common words, hits that match only through their
heading, text forms (NFKC, any script), argument forms (``search -parry``), and where the search
data comes from (the database, not the JSON, at query time).
"""

from __future__ import annotations

import importlib
import json
import re
import textwrap

import pytest

from ruleslawyer.cli import main
from ruleslawyer.rulesdb import build, open_rules, search

_MARK = re.compile(r"<mark>([^<]*)</mark>")


def ids(query, ruleset=None, n=3):
    return [h.id for h in search(query, ruleset=ruleset, limit=n)]


_HOUSE_FRONT = ("---\nruleset: house\nruleset_title: House\nchapter: extras\ntitle: House Rules\nkind: house-rules\n"
                "provenance: a test\n---\n# House Rules\n\n")


def _house_rules(tmp_path, body: str):
    """A rules handle on a database built with one house-rules file: the front matter, then ``body``."""
    house = tmp_path / "house"
    house.mkdir()
    (house / "rules.md").write_text(_HOUSE_FRONT + body, encoding="utf-8")
    build(tmp_path / "rules.db", house_rules=house)
    return open_rules(tmp_path / "rules.db")


# -- quantity --------------------------------------------------------------------------------


def test_a_quantity_question_finds_the_rule_giving_the_number():
    # "1–3 Special Effects equal to the level gap" is the number asked for; the headings and the
    # supplement's Special Effects rows, which only name Effects, come after it
    hits = search("how many effects does the winner of an exchange get", ruleset="mythras", limit=3)
    assert "mythras/combat/the-attack-parry-exchange#3" in [h.id for h in hits]
    assert all(h.kind != "heading" for h in hits)
    # "a number of rounds equal to your Endurance tier" states the amount
    assert ids("how many rounds until I die", "mastery")[0] == "mastery/combat/death/reaching-0-health#3"


@pytest.mark.parametrize("query", ["how many phases does a round have", "number of phases in a round"])
def test_a_quantity_question_prefers_the_unit_counting_the_thing_asked(query):
    # "a nine-phase list" counts phases; the phases' own descriptions ("This Phase covers two
    # categories") state numbers of other things
    assert ids(query, "darkmaster", 1) == ["darkmaster/combat/tactical-round-sequence#1"]


def test_the_build_stores_what_each_number_counts():
    import sqlite3

    conn = sqlite3.connect(open_rules().ensure())
    counted = {(stem, uid) for stem, uid in conn.execute(
        "SELECT c.stem, u.id FROM counted c JOIN units u ON u.rowid = c.rowid")}
    assert ("phase", "darkmaster/combat/tactical-round-sequence#1") in counted      # nine-phase
    heading = "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap"
    assert heading in {uid for (uid,) in conn.execute("SELECT id FROM units WHERE kind = 'heading'")}
    assert ("ap", heading) not in counted  # a heading counts nothing: its section's units do
    assert ("round", "mastery/combat/time#2") not in counted  # "10 Seconds | 6 Rnds/Minute": seconds, rnds
    assert ("second", "mastery/combat/time#2") in counted and ("rnd", "mastery/combat/time#2") in counted


# -- one GM word, several book words; one ruleset drowning another ------------------------------


@pytest.mark.parametrize("query", ["sidestep", "dodging"])
def test_one_gm_word_reaches_each_rulesets_own_word(query):
    # with no ruleset selected, Mastery's many Defense rows (defend, defense) must not bury
    # Mythras's one Evade rule: each ruleset's own word for it is among the first hits
    top = ids(query, None, 3)
    assert "mythras/combat/charge-evade-outmanoeuvre#2" in top
    assert any(i.startswith("mastery/combat/") for i in top)


def test_with_a_ruleset_selected_its_own_word_comes_first():
    # Mythras calls it Evade (its own synonym entry); its own "trip opponent" (the chapter's list of
    # Special Effects and the Effect's row) comes before the common "prone" (Evade: "you go prone")
    assert ids("sidestep", "mythras", 1) == ["mythras/combat/charge-evade-outmanoeuvre#2"]
    assert set(ids("knock him down", "mythras", 2)) == {"mythras/combat/special-effects#1",
                                                         "mythras/supplement/special-effects#8"}


# -- situations and concepts -------------------------------------------------------------------


@pytest.mark.parametrize("query", [
    "the orc turns and flees, do I get a free swing at him",
    "can I swing at someone running off",
])
def test_someone_leaving_melee_reaches_the_reprisal_attack(query):
    assert "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2" in ids(query, "mastery")


def test_a_small_weapon_parrying_a_big_one_reaches_parry_size():
    top = ids("my knife against his two-handed axe, does my parry stop it all", "mythras")
    assert {"mythras/combat/the-attack-parry-exchange#7", "mythras/combat/the-attack-parry-exchange#8",
            "mythras/combat/the-attack-parry-exchange#9"} & set(top)


@pytest.mark.parametrize("query", ["parrying a warhammer with a knife", "my dagger blocked his halberd",
                                   "parried the ogre's maul with my dagger"])
def test_a_small_weapon_named_in_a_parry_reaches_the_steps_smaller_rules(query):
    # a dagger or knife parrying is the smaller weapon: the steps-smaller rules (half damage, no
    # reduction) come before "Parry Size >= attack Size"
    top = ids(query, "mythras")
    assert {"mythras/combat/the-attack-parry-exchange#8", "mythras/combat/the-attack-parry-exchange#9"} & set(top), top


# -- paraphrase -------------------------------------------------------------------------------


def test_armour_falling_apart_is_durability():
    assert ids("armor falling apart after hits", "mastery")[0] == "mastery/combat/additional-combat-rules/health-types#1"


# -- a list's items, introduced by a unit holding the words ------------------------------------


def test_an_item_is_found_through_the_unit_introducing_its_list():
    # "Movement: Move up to your movement speed" never says "basic actions": the line introducing
    # its list does ("All basic actions cost 1 AP:"); each item says which list it is in
    hits = search("basic actions", ruleset="mastery", limit=4)
    base = "mastery/combat/action-points/action-costs#"
    assert hits[0].id == base + "1" and {h.id for h in hits[1:]} <= {base + n for n in "23456"}
    assert hits[0].listed_under == ""
    for h in hits[1:]:
        assert _MARK.findall(h.listed_under) == ["basic", "actions"]
        assert "listed_under" in h.to_dict()
    assert list(hits.to_dataframe()["listed_under"])[1:] == [h.listed_under for h in hits[1:]]
    # "how much AP does an attack cost": "Attack: Make one melee or ranged attack" is in the list
    # "All basic actions cost 1 AP:"
    assert base + "3" in ids("how many AP does a basic attack cost", "mastery", 3)


def test_list_items_store_the_text_introducing_them():
    import sqlite3

    conn = sqlite3.connect(open_rules().ensure())
    lead_in = dict(conn.execute("SELECT id, lead_in FROM units WHERE lead_in != ''"))
    flow = "mastery/combat/combat-flow#"
    # a nested list belongs to its own item ("Held Actions: ... one of the following:"), the outer
    # list to the paragraph; a paragraph between ends a list
    assert lead_in[flow + "9"] == lead_in[flow + "10"] and lead_in[flow + "9"].startswith("Held Actions:")
    assert lead_in[flow + "8"].startswith("Declaration Phase.")
    assert lead_in[flow + "2"] == "The flow of combat follows this structure:"
    # "On your turn, you can take only the actions you declared..." is step 2's own further
    # paragraph: steps 3-7 are still in the list the structure sentence introduces
    assert lead_in[flow + "12"] == lead_in[flow + "16"] == lead_in[flow + "2"]
    assert flow + "11" not in lead_in
    assert lead_in["mastery/combat/death/going-down#3"] == "If you fail the Endurance trial or choose to fall unconscious:"
    # the Mythras exchange's steps follow their heading: no unit introduces them
    assert not any(k.startswith("mythras/combat/the-attack-parry-exchange#") and int(k.rsplit("#")[1]) < 6
                   for k in lead_in)
    assert "mastery/combat/death/going-down#1" not in lead_in  # the paragraph itself


def test_the_command_line_says_which_list_a_hit_is_in(capsys):
    assert main(["search", "--ruleset", "mastery", "basic actions", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "(in the list under: All [basic] [actions] cost 1 AP:)" in out


@pytest.mark.parametrize("script", ["ascii", "beyond"])
def test_a_long_lead_in_is_cut_around_its_marks_like_a_snippet(tmp_path, script):
    word = "gambit" if script == "ascii" else "gambité"  # beyond ASCII: marked by FTS5's snippet()
    filler = " ".join(["The stratagem unfolds slowly across the field."] * 80)  # ~3,800 characters
    rules = _house(tmp_path, f"""\
        ---
        ruleset: house
        chapter: war
        title: War
        ---

        # War

        ## Grand Plans

        {filler} Each {word} has these parts:

        - Feint: draw the foe out.
        - Strike: hit where the feint opened.
        """)
    hits = search(f"{word} parts", ruleset="house", db=rules.path)
    items = [h for h in hits if h.kind == "item"]
    assert items and all(h.listed_under for h in items)
    for h in items:
        assert len(h.listed_under) < 600 and "<mark>" in h.listed_under


def test_the_synonym_lookups_kept_per_database_stay_bounded(monkeypatch):
    # a long session types thousands of distinct words: the kept lookups start again past a bound, so
    # a search never slows down with the session's length (each lookup reads only its own keys)
    from ruleslawyer.rulesdb import query
    from ruleslawyer.rulesdb.fulltext import _data

    monkeypatch.setattr(query, "SYNONYM_CACHE", 200)
    rules = open_rules()
    data = _data(rules)[1]
    for n in range(60):
        search(f"zq{n}x wobble{n} frobnicate{n} parry", ruleset="mythras", rules=rules)
        assert len(data._synonyms) <= 200 + 150
    assert ids("attack of opportunity", "mastery", 1) == \
        ["mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2"]


def test_the_search_panel_says_which_list_a_hit_is_in():
    from ruleslawyer.widgets import SearchPanel

    panel = SearchPanel("basic actions", ruleset="mastery")
    shown = [w.value for w in panel.hit_snippets[:4]]
    assert "in the list under:" not in shown[0]
    for html in shown[1:]:
        assert ('<div class="rl-hit-heading">in the list under: All <mark>basic</mark> <mark>actions</mark> cost 1 AP:'
                in html)


# -- a table's rows, introduced by its header -------------------------------------------------


def test_a_row_stores_the_header_of_the_columns_it_keeps():
    import sqlite3

    conn = sqlite3.connect(open_rules().ensure())
    lead_in = dict(conn.execute("SELECT id, lead_in FROM units WHERE kind = 'row'"))
    assert lead_in["mastery/combat/actions-and-reactions/other-actions#9"] == "Action Type · AP Cost · Notes"
    # a rollable table's die column names the roll, not the row: "d100" and "1d20" are left out
    assert lead_in["mastery/combat/wounds-injuries-and-trauma/trauma-table#39"] == "Trauma · Tier · Mundane recovery"
    assert lead_in["mythras/supplement/hit-location#3"] == "Location"
    # a supplement row's "Rule" cell only links to the chapter: neither it nor its column is searched
    assert lead_in["mythras/supplement/difficulty-grades#6"] == "Grade · Skill multiplier · Notes"
    # a row never takes a list's lead-in, nor does a paragraph take a header
    assert all(v for v in lead_in.values())
    assert conn.execute("SELECT count(*) FROM units WHERE kind != 'row' AND lead_in LIKE '%·%'").fetchone()[0] == 0


@pytest.mark.parametrize(("query", "ruleset", "row"), [
    # "AP Cost" heads the column of "Open / Close Door | 1": the row never says "cost" or "AP"
    ("AP cost to open a door", "mastery", "mastery/combat/actions-and-reactions/other-actions#9"),
    ("AP cost to toss a potion to an ally", "mastery", "mastery/combat/actions-and-reactions/other-actions#5"),
    # "Skill multiplier" heads the grades' column: "Formidable | ×1/2 | ..."
    ("skill multiplier for Formidable", "mythras", "mythras/supplement/difficulty-grades#6"),
])
def test_a_row_is_found_through_its_tables_header(query, ruleset, row):
    hits = search(query, ruleset=ruleset, limit=3)
    assert hits[0].id == row
    assert "<mark>" in hits[0].listed_under and "·" in hits[0].listed_under


def test_a_row_stores_the_paragraph_introducing_its_table():
    import sqlite3

    conn = sqlite3.connect(open_rules().ensure())
    rowid = dict(conn.execute("SELECT id, rowid FROM units"))
    intro = {i: n for i, n in conn.execute("SELECT u.id, s.intro FROM search_units s JOIN units u ON u.rowid = s.rowid")}
    grades = "mythras/supplement/difficulty-grades#"
    assert {intro[grades + str(n)] for n in range(2, 9)} == {rowid[grades + "1"]}
    assert intro[grades + "1"] == 0  # the paragraph itself
    # the Other Actions table follows its heading: no paragraph introduces it
    assert intro["mastery/combat/actions-and-reactions/other-actions#9"] == 0
    trauma = "mastery/combat/wounds-injuries-and-trauma/trauma-table#"
    assert intro[trauma + "39"] == rowid[trauma + "11"]


@pytest.mark.parametrize(("query", "ruleset", "top"), [
    # two rows of the grades table lead: the sentence saying what a grade does follows the first
    ("easy or hard skill modifiers", "mythras", ["mythras/supplement/difficulty-grades#3",
                                                 "mythras/supplement/difficulty-grades#1",
                                                 "mythras/supplement/difficulty-grades#5"]),
    ("special effects on a fumble", "mythras", ["mythras/combat/special-effects#1",
                                                "mythras/supplement/special-effects#24",
                                                "mythras/supplement/special-effects#1"]),
    # one row of the table among the first three: it stands alone
    ("skill percentage modifiers for hard tasks", "mythras", ["mythras/supplement/difficulty-grades#5",
                                                              "mythras/combat/combat-styles#1",
                                                              "mythras/combat/charge-evade-outmanoeuvre#1"]),
])
def test_rows_of_one_table_leading_are_followed_by_its_introduction(query, ruleset, top):
    assert ids(query, ruleset, 3) == top


def test_a_die_asked_about_does_not_reach_every_row_of_a_rolled_table():
    # the Trauma Table's rows sit under "d100": a question about an attack's die is not about them
    assert not any("trauma-table" in i for i in ids("archery roll which die", "mastery", 4))


def test_a_word_of_a_header_and_a_cell_finds_the_row():
    # "Length" heads the weapons' column and the spear's cell says "Longest": its row comes first,
    # before the Melee Phase's sentence on weapon length in general
    assert ids("weapon length of a spear", "darkmaster", 1) == ["darkmaster/supplement/weapons-by-name#14"]


def test_the_command_line_and_panel_say_which_table_header_a_row_is_under(capsys):
    from ruleslawyer.widgets import SearchPanel

    assert main(["search", "--ruleset", "mastery", "AP cost to open a door", "--limit", "1"]) == 0
    # "Action" is marked too: "AP" also reads as "action points"
    assert "(in the table under: [Action] Type · [AP] [Cost] · Notes)" in capsys.readouterr().out
    panel = SearchPanel("AP cost to open a door", ruleset="mastery")
    assert ('<div class="rl-hit-heading">in the table under: <mark>Action</mark> Type · <mark>AP</mark> <mark>Cost</mark> · Notes'
            in panel.hit_snippets[0].value)


# -- noise from common words ------------------------------------------------------------------


def test_a_common_word_in_an_idiom_does_not_win():
    # "running off" is leaving melee; "your dying timer continues to run" is not about it
    top = search("can I swing at someone running off", ruleset="mastery", limit=3)
    assert not any("dying timer" in h.text for h in top)


@pytest.mark.parametrize("query, ruleset, answer", [
    ("what if I don't even try to parry", "mythras", "mythras/combat/the-attack-parry-exchange#11"),
    ("what if I don't even try to defend", "mastery", "mastery/combat/actions-and-reactions/defense#16"),
    ("never even tried to parry", "mythras", "mythras/combat/the-attack-parry-exchange#11"),
    ("won't even bother to parry", "mythras", "mythras/combat/the-attack-parry-exchange#11"),
])
def test_filler_inside_a_negation_still_reaches_the_not_doing_it_rule(query, ruleset, answer):
    # "don't even try to parry" is "not parry": the filler between the negation and the verb
    # ("even", "try", "just", "really") must not hide the synonym entry for not parrying
    assert ids(query, ruleset, 1) == [answer]


def test_function_words_weigh_as_filler():
    # "than", "rather", "whether", "causes" are rare in the rules, so they would weigh like topic
    # words; a GM's framing must not outweigh what is asked about
    from ruleslawyer.rulesdb.fulltext import _compiled, _data

    conn, data = _data(open_rules())
    groups = _compiled("what causes a fumble rather than a hit for everyone", "mythras", conn, data).groups
    weight = {p.alts[0].words[0]: g.weight for g in groups if not g.bonus for p in g.parts[:1]}
    for word in ("causes", "everyone"):
        assert weight[word] < weight["fumble"] / 2, word
    # "rather than" says which way the question turns: neither of its words is searched at all
    assert "rather" not in weight and "than" not in weight
    groups = _compiled("whether a fumble is rather bad", "mythras", conn, data).groups
    weight = {p.alts[0].words[0]: g.weight for g in groups if not g.bonus for p in g.parts[:1]}
    for word in ("whether", "rather"):
        assert weight[word] < weight["fumble"] / 2, word
    # and filler is never "corrected" into a rules word ("tries" is not a misspelt "ties")
    assert not any(n.startswith("spelling") for n in search("never tries to parry", ruleset="mastery").expansions)


@pytest.mark.parametrize("query", ["failed the surprise roll when combat begins, now what",
                                   "penalty for a failed surprise check at the beginning of the fight"])
def test_a_phrase_setting_the_scene_weighs_little(query):
    # "when combat begins" / "at the beginning of the fight" say when, not what: the Startle results
    # (a failed Startle trial) are the answer, and the first of them is among the first two hits
    top = ids(query, "mastery", 2)
    assert "mastery/combat/startle-and-ambush/results#1" in top


@pytest.mark.parametrize("query, ruleset, answer, fix", [
    ("hit pionts", "mastery", "mastery/combat/additional-combat-rules/health-types#2", "pionts → points"),
    ("atack of opportunity", "mastery", "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2",
     "atack → attack"),
    ("turn ordr", "mythras", "mythras/combat/setup#1", "ordr → order"),
])
def test_a_misspelt_word_inside_a_gm_phrase_still_meets_its_synonym(query, ruleset, answer, fix):
    # the phrases are looked up with the correction ("hit points" → Health), and the results say so
    results = search(query, ruleset=ruleset, limit=1)
    assert [h.id for h in results] == [answer]
    assert f"spelling: {fix}" in results.expansions


@pytest.mark.parametrize("query", ["nat 1", "what if I roll a 1", "I rolled a 1 on my attack"])
def test_a_roll_of_1_is_not_a_fumble_in_mythras(query):
    # Mythras rolls d100 under the skill: 01 is always at least a success (its fumble is 99 or 00);
    # the d20 reading of "roll a 1" must not put the Fumble row first
    top = ids(query, "mythras", 3)
    assert "mythras/supplement/skill-rolls#5" not in top[:2]
    if query == "nat 1":  # the Critical and Success rows, or the sentence introducing their table
        assert set(top[:2]) <= {"mythras/supplement/skill-rolls#" + n for n in "123"}


def test_a_word_the_synonym_data_knows_is_not_spell_corrected():
    # "swing" is not in the rules, but it is a GM's word for an attack, not a misspelt "sling"
    results = search("swing", ruleset="mastery")
    assert not any(n.startswith("spelling") for n in results.expansions)


@pytest.mark.parametrize("query, ruleset, word", [
    ("we fight on a frozen lake and slide around", "mastery", "lake"),  # not "like"
    ("an ambush on the road, who rolls", "mastery", "road"),  # not "read"
    ("stay safe in a gunfight without blocking", "mythras", "safe"),  # not "same"
    ("digging through my pack for a potion", "mastery", "digging"),  # not "dieing" (and so dying)
    ("spraying bullets at the goblins", "mythras", "spraying"),  # not "speaking"
])
def test_a_common_english_word_is_not_spell_corrected_into_a_rules_word(query, ruleset, word):
    # a word the rules never use may still be a word the GM means: the scene, not a typo (another form
    # of the same word, "digging" → "dig", is no other word)
    from ruleslawyer.rulesdb.words import porter_stems

    fixes = [n.split(" → ")[1] for n in search(query, ruleset=ruleset).expansions if n.startswith(f"spelling: {word} ")]
    assert all(porter_stems([f])[f] == porter_stems([word])[word] for f in fixes), fixes


@pytest.mark.parametrize("query, ruleset, fixes", [
    ("they have rifles and we have swords", "mythras", {"spelling: rifles → rifle"}),  # another form of the word
    ("how is initiative decided", "mastery", {"spelling: decided → decide", "spelling: decided → decides"}),
    ("the lights suddenly go out", "darkmaster", {"spelling: suddenly → sudden"}),  # an adverb of the word
    ("reprisel attack", "mastery", {"spelling: reprisel → reprisal"}),  # a misspelling is still corrected
    ("a rope from my backpack by the lake", "mastery", set()),  # no form of rope or lake in the rules
])
def test_a_common_word_is_corrected_only_to_another_form_of_itself(query, ruleset, fixes):
    spelling = [n for n in search(query, ruleset=ruleset).expansions if n.startswith("spelling")]
    assert len(spelling) == (1 if fixes else 0) and set(spelling) <= fixes, spelling


def test_common_words_do_not_use_up_the_turns_of_a_misspelling():
    # four common words the rules never use come first: the misspelt fifth is still corrected, in any order
    for query in ("lake road castle meadow flankng", "flankng lake road castle meadow"):
        results = search(query, ruleset="mastery")
        assert "spelling: flankng → flanking" in results.expansions, query
        assert len(results) > 0


def test_a_scene_word_no_longer_pulls_in_the_dying_rules():
    # "digging" was read as "dieing" (dying): Fighting On and the dying timer led; the pack is the question
    top = ids("digging a rope out of my backpack mid fight", "mastery")
    assert top[0] in ("mastery/combat/actions-and-reactions/interaction#4",
                      "mastery/combat/actions-and-reactions/other-actions#4")
    assert not any("/death/" in i for i in top)


# -- hits that match only through their heading ---------------------------------------------------


def test_a_heading_only_hit_says_so_and_ranks_below_the_sentence_holding_the_word():
    hits = search("parry", ruleset="mythras", limit=20)
    order = [h.id for h in hits]
    # "Defender may spend 1 AP to Parry" holds the word; "Attacker spends 1 AP, rolls Combat Style"
    # only sits under "The attack–parry exchange"
    holds, sibling = "mythras/combat/the-attack-parry-exchange#2", "mythras/combat/the-attack-parry-exchange#1"
    assert holds in order[:5] and order.index(holds) < order.index(sibling)
    only = hits[order.index(sibling)]
    assert "<mark>" not in only.snippet
    assert only.matched_heading == "The attack–<mark>parry</mark> exchange"
    assert "<mark>" in hits[order.index(holds)].snippet and hits[order.index(holds)].matched_heading == ""
    # the heading shows the whole trail, escaped, with the words marked
    deep = search("fighting", ruleset="mastery", limit=50)
    under = next(h for h in deep if h.id == "mastery/combat/death/fighting-on#2")
    assert under.matched_heading == "Death › <mark>Fighting</mark> On"


def test_every_hit_of_common_queries_shows_where_it_matched():
    # the 20 queries of the speed benchmark and a few questions: every hit has a marked word in its
    # snippet or in its matched heading
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from bench_rulesdb import GM_QUERIES

    for q in GM_QUERIES + ["can I attack someone who runs away", "does my armour wear out"]:
        for h in search(q, limit=10):
            assert "<mark>" in h.snippet or "<mark>" in h.matched_heading, (q, h.id)


# -- text forms --------------------------------------------------------------------------------


def _house(tmp_path, text: str):
    house = tmp_path / "house"
    house.mkdir()
    (house / "spirits.md").write_text(textwrap.dedent(text), encoding="utf-8")
    target = tmp_path / "rules.db"
    build(target, house_rules=house)
    return open_rules(target, house)


def test_decomposed_accents_in_the_query_and_in_house_rules(tmp_path):
    decomposed = "se\u0301ance"  # "se" + COMBINING ACUTE ACCENT + "ance"
    rules = _house(tmp_path, f"""\
        ---
        ruleset: house
        chapter: spirits
        title: Spirits
        ---

        # Spirits

        ## Calling

        A {decomposed} calls the dead for one question. The naïve medium pays 1 AP.
        """)
    composed, typed = search("séance", db=rules.path), search(decomposed, db=rules.path)
    assert [h.id for h in composed][:1] == [h.id for h in typed][:1] == ["house/spirits/calling#1"]
    # the text is kept as written; the snippet is cut from its NFKC form, the word marked whole
    assert decomposed in composed[0].text
    assert "<mark>séance</mark>" in composed[0].snippet
    assert search("naive", db=rules.path)[0].id == "house/spirits/calling#1"


def test_every_script_is_matched_and_marked_as_whole_words(tmp_path):
    rules = _house(tmp_path, """\
        ---
        ruleset: house
        chapter: tongues
        title: Tongues
        ---

        # Tongues

        ## Words

        The war cry हिन्दी frightens foes; the ligature ﬁght reads as fight.
        """)
    hit = search("हिन्दी", db=rules.path)[0]
    assert hit.id == "house/tongues/words#1"
    # the vowel signs are part of the word: marked whole, not as three letters
    assert _MARK.findall(hit.snippet) == ["हिन्दी"]
    # NFKC: the ligature "ﬁ" is "fi", so "fight" finds it
    assert "house/tongues/words#1" in [h.id for h in search("fight", db=rules.path)]


# -- argument forms ----------------------------------------------------------------------------


def test_search_dash_word_is_a_query_word_with_json(capsys):
    assert main(["search", "-parry", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["query"] == "-parry" and data["hits"]
    assert "<mark>Parry</mark>" in data["hits"][0]["snippet"]
    # options still work around it, and "--" still ends the options
    assert main(["search", "--ruleset", "mythras", "-parry", "--limit", "2", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["hits"]) == 2
    assert main(["search", "--json", "--", "--parry"]) == 0
    assert json.loads(capsys.readouterr().out)["query"] == "--parry"


def test_a_heading_only_hit_prints_its_heading(capsys):
    assert main(["search", "--ruleset", "mythras", "--limit", "20", "parry"]) == 0
    out = capsys.readouterr().out
    assert "(matched in the heading: The attack–[parry] exchange)" in out


# -- where the search data comes from -----------------------------------------------------------


def test_query_time_reads_the_synonyms_from_the_database(tmp_path, monkeypatch):
    from ruleslawyer.rulesdb import synonyms

    target = tmp_path / "rules.db"
    build(target)
    rules = open_rules(target)

    def no_files():
        raise AssertionError("query time must not read the synonym files")

    synonyms._load.cache_clear()
    monkeypatch.setattr(synonyms, "synonym_files", no_files)
    try:
        hits = search("HP", "mastery", rules=rules)
        assert "synonym: HP → health" in hits.expansions
    finally:
        synonyms._load.cache_clear()


def test_the_synonym_files_come_from_the_registry():
    from ruleslawyer.registry import rulesets
    from ruleslawyer.rulesdb.synonyms import COMMON_FILE, synonym_files

    files = synonym_files()
    assert files[0] == (None, COMMON_FILE)
    assert {(rid, str(path)) for rid, path in files[1:]} == {(r.id, str(r.synonyms)) for r in rulesets() if r.synonyms}


def test_no_python_inverted_index():
    # ranking is FTS5's: no postings table in the database, no index class read into Python
    search_module = importlib.import_module("ruleslawyer.rulesdb.fulltext")
    assert not hasattr(search_module, "_Index")
    conn = open_rules().connection()
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"postings", "stems", "search_index"}.isdisjoint(tables)
    assert {"words", "synonyms", "labels", "titles", "search_units"} <= tables


# --- other games' words and table verbs (the fourth blind tuning set's misses, fixed as kinds) -----------

@pytest.mark.parametrize("query", ["whats the to-hit roll vs AC", "do i need to beat their AC",
                                   "sword versus shield, roll vs ac"])
def test_a_to_hit_roll_against_ac_reaches_mastery_attacks_that_always_hit(query):
    # "vs"/"versus" carry no topic (filler); the answer to "to-hit vs AC" in Mastery is that a melee
    # attack hits unless the target spends AP to defend
    got = ids(query, "mastery")
    assert {"mastery/combat/actions-and-reactions/attack#3", "mastery/combat/actions-and-reactions/attack#12"} & set(got), got


def test_vs_and_versus_weigh_as_filler():
    from ruleslawyer.rulesdb.query import FILLER

    assert {"vs", "versus"} <= FILLER


@pytest.mark.parametrize("query", ["when do conditions tick down", "does stunned tick down",
                                   "when does dazed wind down"])
def test_conditions_ticking_down_reach_the_step_down_rule(query):
    got = ids(query, "mastery")
    assert {"mastery/combat/combat-flow#16", "mastery/combat/startle-and-ambush/results#4",
            "mastery/supplement/startle-results#5"} & set(got), got


@pytest.mark.parametrize("query", ["switching to my bow this round", "I swapped my axe for a dagger, what phase"])
def test_swapping_a_weapon_reaches_weapon_switching(query):
    got = ids(query, "mastery")
    assert {"mastery/combat/combat-flow#4", "mastery/combat/action-points/initiative-phases#7"} & set(got), got


@pytest.mark.parametrize("query", ["who is my character going after this round", "when do I choose targets",
                                   "when do we say who we attack"])
def test_saying_who_you_go_after_reaches_the_darkmaster_declaration(query):
    assert "darkmaster/combat/tactical-round-sequence/action-declaration-phase#1" in ids(query, "darkmaster")


@pytest.mark.parametrize("query", ["can I slow down my spell", "chant an incantation slower"])
def test_slowing_a_spell_reaches_casting_it_slower_without_a_miscast(query):
    assert "mastery/combat/actions-and-reactions/casting#6" in ids(query, "mastery")


@pytest.mark.parametrize("query, ruleset, answer", [
    ("d12", "mythras", "mythras/supplement/damage-modifier#12"),   # the rules: "+1d12"
    ("d20", "mythras", "mythras/combat/the-attack-parry-exchange#5"),  # "roll Hit Location (1d20)"
    ("what do I roll on the d6 for sides", "mastery", "mastery/combat/combat-flow#12"),   # "Roll 1d6"
    ("what happens on a 1d100 roll of 96 or more", "darkmaster", "darkmaster/supplement/rolls#4"),  # rules: "d100"
    ("1d100 skill roll", "mythras", "mythras/supplement/skill-rolls#3"),
])
def test_one_die_written_dn_or_1dn_is_the_same_die(query, ruleset, answer):
    assert answer in ids(query, ruleset)


def test_the_build_pairs_dn_with_1dn_both_ways(tmp_path):
    rules = open_rules(tmp_path / "rules.db")
    build(tmp_path / "rules.db")
    conn = rules.connection()
    pairs = dict(conn.execute("SELECT key, phrases FROM synonyms WHERE scope = '='").fetchall())
    assert "1d6" in pairs["d6"].split("\t") and "d100" in pairs["1d100"].split("\t")


@pytest.mark.parametrize("query, ruleset, answer", [
    ("riposte after a successful parry", "mastery",
     "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#1"),
    ("which d6 result means players go first", "mastery", "mastery/combat/combat-flow#12"),
])
def test_after_and_means_weigh_as_filler(query, ruleset, answer):
    # "after" and "means" are not the topic: "After the spell is cast" and "Days' rest means" no longer lead
    assert ids(query, ruleset, 1) == [answer]


def _alternatives(query, ruleset):
    from ruleslawyer.rulesdb.fulltext import _compiled, _data

    conn, data = _data(open_rules())
    return [(g, a) for g in _compiled(query, ruleset, conn, data).groups for p in g.parts for a in p.alts]


@pytest.mark.parametrize("query, corrected, variant", [
    ("counter atack after a succesful defense", "successful", "successfully"),
    ("succesful defense then hit back", "successful", "successfully"),
])
def test_a_corrected_word_brings_its_other_forms_too(query, corrected, variant):
    # the rules say "successfully"/"automatically": a typed "successful" reaches them as a variant,
    # and so must a misspelt word once corrected
    words = {a.words for _g, a in _alternatives(query, "mastery")}
    assert (variant,) in words


@pytest.mark.parametrize("query", ["what do we roll to see if players or monsters go first",
                                   "party or monsters, who acts first"])
def test_a_gm_phrase_of_cast_words_named_by_the_synonyms_is_not_filler(query):
    # "players", "party" and "monsters" are filler one by one, but "players or monsters" names side initiative
    assert ids(query, "mastery", 1) == ["mastery/combat/combat-flow#12"]
    side = [g for g, a in _alternatives(query, "mastery") if "side goes first" in " ".join(a.words)]
    others = [g.weight for g, a in _alternatives(query, "mastery") if a.words in {("roll",), ("see",)}]
    assert side and all(side[0].weight > w for w in others)


# --- a face rolled finds the table row whose range holds it ----------------------------------------

@pytest.mark.parametrize("query, ruleset, answer, note", [
    ("I rolled 96 on the trauma table", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#58",
     "roll: 96 is in 86–99 (Trauma Table)"),
    ("trauma 57", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#48",
     "roll: 57 is in 57–59 (Trauma Table)"),
    ("rolled a 14 for hit location", "mythras", "mythras/supplement/hit-location#6",
     "roll: 14 is in 13–15 (Hit location (humanoid))"),
    # percentile dice read "07" as 7 and "00" as 100, as `roll --roll` does
    ("I rolled 07 on the trauma table", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#16",
     "roll: 07 is 7"),
    ("I rolled 00 on the trauma table", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#59",
     "roll: 00 is 100"),
])
def test_a_face_rolled_finds_the_row_whose_range_holds_it(query, ruleset, answer, note):
    hits = search(query, ruleset=ruleset, limit=3)
    assert hits[0].id == answer and note in hits.expansions
    # both ends of a range are marked; a single face once
    assert len(_MARK.findall(hits[0].snippet)) == (2 if " is in " in note else 1)


def test_a_face_rolled_finds_a_house_table_row_and_nothing_outside_the_die(tmp_path):
    rules = _house_rules(tmp_path, "## Snacks\n\n<!-- table: snacks -->\n\n"
                                   "| d6 | Snack |\n|---|---|\n| 1–3 | pretzels |\n| 4–6 | grapes |\n")
    hits = search("rolled a 5 on the snacks table", ruleset="house", limit=3, rules=rules)
    assert hits[0].id == "house/extras/snacks#2" and "grapes" in hits[0].text
    assert not any(n.startswith("roll:") for n in search("rolled a 7 for snacks", ruleset="house", rules=rules).expansions)
    # a number that long is no face: no table look-up, no error
    assert search("1234567890 snacks", ruleset="house", rules=rules) is not None


@pytest.mark.parametrize("query, ruleset, answers", [
    # Mythras has no "health": 0 health is its wound levels (0 Hit Points and below), not rows holding "+0"
    ("what happens at 0 health", "mythras", {"mythras/supplement/where-the-chapter-is-silent#9",
                                            "mythras/supplement/where-the-chapter-is-silent#10"}),
    ("my guy is at zero health", "mythras", {"mythras/supplement/where-the-chapter-is-silent#9",
                                            "mythras/supplement/where-the-chapter-is-silent#10"}),
    ("what happens at 0 health", "mastery", {"mastery/combat/death/reaching-0-health#1"}),
])
def test_zero_health_reaches_each_rulesets_own_rule(query, ruleset, answers):
    assert answers & set(ids(query, ruleset)), ids(query, ruleset)


@pytest.mark.parametrize("query", ["does armour reduce damage", "does armor reduce damage", "armor absorbs damage?"])
def test_armour_reducing_damage_reaches_armor_resistance(query):
    got = ids(query, "mastery")
    assert {"mastery/combat/actions-and-reactions/defense#15", "mastery/combat/actions-and-reactions/defense#16"} & set(got), got


def test_a_quoted_phrase_is_not_read_across_the_end_of_a_sentence(tmp_path):
    got = ids('"fighting on"', "mastery", 20)
    assert "mastery/combat/death/fighting-on#1" in got
    assert "mastery/combat/death/reaching-0-health#4" not in got  # "…continue fighting. On a failure…"
    rules = _house_rules(tmp_path, "## Weekdays\n\nWe keep fighting. On Sundays we rest.\n\n"
                                   "## Weekends\n\nWe keep fighting on Sundays; fighting! on Mondays? No.\n\n## Truces\n\nAn orc–goblin truce.\n")
    assert [h.id for h in search('"fighting on"', ruleset="house", rules=rules)] == ["house/extras/weekends#1"]
    # unquoted, the words still find both; a dash inside a phrase is no sentence end
    assert {h.id for h in search("fighting on sundays", ruleset="house", rules=rules)} >= {
        "house/extras/weekdays#1", "house/extras/weekends#1"}
    assert [h.id for h in search('"orc goblin"', ruleset="house", rules=rules)] == ["house/extras/truces#1"]


@pytest.mark.parametrize("query", ["፩", "𐩀", "፩ ፩ ፩ 87", "٩٦ trauma", "９６", "¹", "߈߇", "+1", "-5", "0" * 7 + "87"])
def test_digits_of_any_script_are_a_valid_query(query):
    # str.isdigit() is true of digits int() cannot read (Ethiopic, Kharoshthi): never an internal error
    search(query, limit=3)


def test_a_face_inside_a_gm_phrase_still_finds_its_row():
    # "rolled 96" is a Darkmaster/Mythras phrase (the open-ended roll); with every ruleset searched the
    # Trauma row holding 96 is found too, and both are said
    hits = search("I rolled 96 on the trauma table", limit=3)
    assert hits[0].id == "mastery/combat/wounds-injuries-and-trauma/trauma-table#58"
    assert {"roll: 96 is in 86–99 (Trauma Table)", "roll: 96 is in 96–00 (Open-ended d100)"} <= set(hits.expansions)


@pytest.mark.parametrize("phrase", ['"injury treating"', '"nose penalty"', '"moving creatures"', '"energy fire"',
                                    '"trial a"'])
def test_a_quoted_phrase_across_a_sentence_end_is_not_found_whatever_its_stems(phrase):
    # the words as the rules write them ("Injury. Treating", "penalty"), not stems that are no word's start
    assert ids(phrase, "mastery", 20) == []


def test_a_quoted_phrase_is_not_read_across_other_scripts_sentence_ends(tmp_path):
    rules = _house_rules(tmp_path, "## Split\n\n战斗。 继续 القتال؟ الاستمرار युद्ध। जारी\n\n"
                                   "## Whole\n\n战斗 继续 القتال الاستمرار युद्ध जारी\n")
    for phrase in ('"战斗 继续"', '"القتال الاستمرار"', '"युद्ध जारी"'):
        assert [h.id for h in search(phrase, ruleset="house", rules=rules)] == ["house/extras/whole#1"], phrase


@pytest.mark.parametrize("query", ["casting a spell", "spellcasting in combat"])
def test_a_spell_in_mythras_reaches_cast_magic(query):
    # Mythras's chapter says "Cast Magic/Use Power", never "spell" for casting one: the Proactive
    # actions listing it come before Counter Spell's Reactive list
    assert ids(query, "mythras", 1) == ["mythras/combat/action-menu-essentials#1"]


@pytest.mark.parametrize("query", ["how many ap per round", "how many AP per round for everyone"])
def test_a_quantity_question_counts_the_book_word_for_the_gm_word(query):
    # "AP" is the book's "2 Action Points (AP) per round": the number counts "Action Points", so the
    # rule giving everyone's number ranks above the Trauma rows that state "1 AP per round"
    assert ids(query, "mastery", 1) == ["mastery/combat/action-points#1"]


@pytest.mark.parametrize("query", ["i dove out of the way", "i dived out of the way, am i prone"])
def test_diving_away_is_mythras_evade(query):
    assert "mythras/combat/charge-evade-outmanoeuvre#2" in ids(query, "mythras")


@pytest.mark.parametrize("query", ["stop reloading halfway to shoot", "can i give up halfway through climbing"])
def test_stopping_a_long_action_reaches_interrupting_a_multi_round_action(query):
    assert ids(query, "darkmaster", 1) == ["darkmaster/combat/action-types/multi-round-actions#1"]


@pytest.mark.parametrize(("query", "ruleset", "answer"), [
    ("how many squres per move", "mastery", "mastery/combat/actions-and-reactions/movement#1"),
    ("crti chance", "mythras", "mythras/supplement/skill-rolls#2"),
])
def test_a_misspelt_gm_word_the_rules_lack_is_corrected_to_the_synonym_datas_word(query, ruleset, answer):
    # "squares" and "crit" are no words of the rules; the synonym data knows them as words of their own
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize(("query", "ruleset", "answer", "fix"), [
    ("do monsters get attacks of oportunity", "mastery",
     "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2", "oportunity → opportunity"),
    ("reflx save against a falling rock", "mythras", "mythras/combat/charge-evade-outmanoeuvre#2", "reflx → reflex"),
    ("caled shot to the head", "mythras", "mythras/combat/special-effects#1", "caled → called"),
])
def test_a_misspelt_word_only_a_longer_gm_phrase_holds_is_corrected_to_it(query, ruleset, answer, fix):
    # "opportunity", "reflex" and "called" are in no rule and no one-word synonym, only in the synonym
    # data's phrases ("attack of opportunity", "reflex save", "called shot"): the correction completes the phrase
    results = search(query, ruleset=ruleset, limit=3)
    assert answer in [h.id for h in results]
    assert f"spelling: {fix}" in results.expansions


@pytest.mark.parametrize("query", ["what makes durability go down", "does my armour get damaged when i get hit"])
def test_durability_going_down_is_armour_wearing_not_a_character_going_down(query):
    assert "mastery/combat/additional-combat-rules/health-types#1" in ids(query, "mastery")
    assert not any(i.startswith("mastery/combat/death/going-down") for i in ids(query, "mastery"))


@pytest.mark.parametrize(("typo", "word"), [("succesful", "successful"), ("automaticaly", "automatically")])
def test_a_corrected_word_weighs_as_the_word_it_is_corrected_to(typo, word):
    # the correction brings the word's other forms ("successfully") to match, not their weight: a rarer
    # form would weigh a typo more than the word spelt right
    from ruleslawyer.rulesdb import fulltext

    rules = open_rules()
    conn, data = fulltext._data(rules)
    typed = fulltext._compiled(f"{typo} defense", "mastery", conn, data)
    right = fulltext._compiled(f"{word} defense", "mastery", conn, data)
    assert [round(g.weight, 6) for g in typed.groups] == [round(g.weight, 6) for g in right.groups]


_STARTLE = "mastery/combat/startle-and-ambush/results#4"
_ZERO = "mastery/combat/death/reaching-0-health#1"
_FULL = "darkmaster/combat/action-types#2"


@pytest.mark.parametrize(("query", "ruleset", "answer"), [
    # the shock of an ambush is Mastery's Startle
    ("how fast does the shock wear off", "mastery", _STARTLE),
    ("how quickly does ambush shock go away", "mastery", _STARTLE),
    # a foe taking you to 0 is reaching 0 health
    ("a goblin took me to 0 health", "mastery", _ZERO),
    ("goblin knocked me to 0 hp what now", "mastery", _ZERO),
    # a full-round action is Darkmaster's Full Action
    ("what is a full-round action", "darkmaster", _FULL),
    ("full-round action", "darkmaster", _FULL),
])
def test_a_gm_situation_in_other_words_reaches_its_rule(query, ruleset, answer):
    assert answer in ids(query, ruleset)


def test_doing_two_things_in_the_same_round_weighs_less_than_the_things():
    # "in the same round" frames the question: the horse is the point, not a spell cast in the same round
    assert ids("can i climb on my horse and attack in the same round", "mastery", 1) == [
        "mastery/combat/actions-and-reactions/other-actions#8"]


@pytest.mark.parametrize(("query", "ruleset", "note"), [
    ("can i block with no AP left", "mastery", "synonym: no AP left → no ap remaining"),
    ("what if no one casts a spell this round", "darkmaster", "synonym: no one casts → passed over"),
])
def test_a_synonym_written_with_a_negation_meets_the_question(query, ruleset, note):
    # a question's "no" is read as "not"; the synonym data's "no ap left" is read the same way
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert note in fulltext._compiled(query, ruleset, conn, data).notes


def test_an_american_spelling_matches_the_books_british_one_as_typed():
    # "armor" is the book's "armour", not a synonym of it: the unit holding armour and damage leads
    assert ids("damage reduction armor", "mythras", 1) == ["mythras/combat/the-attack-parry-exchange#10"]


@pytest.mark.parametrize(("query", "ruleset", "unwanted"), [
    ("dieing timer", "mastery", "spelling: dieing → diving"),  # a common misspelling of dying, not diving
    ("how many ap per round", "mythras", "synonym: round → round up"),  # the combat round, not rounding
])
def test_a_common_word_is_not_read_in_a_wrong_sense(query, ruleset, unwanted):
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert not any(n.startswith(unwanted) for n in fulltext._compiled(query, ruleset, conn, data).notes)


def test_per_weighs_as_filler_so_the_rule_giving_the_number_leads():
    # "per round" asks about the round; a row saying "one per row" is no answer
    assert ids("how many action points per round", "mythras", 1) == ["mythras/combat/setup#2"]


@pytest.mark.parametrize("query, ruleset, answer", [
    ("choose where I hit a sleeping guard", "mythras", "mythras/combat/ranged-combat#2"),  # "still or unaware"
    ("the sentry is asleep, what happens when we attack", "mastery", "mastery/combat/startle-and-ambush#1"),
])
def test_a_helpless_or_sleeping_target_meets_the_rule_for_an_unaware_one(query, ruleset, answer):
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize("query, answer", [
    ("barricading the gate against them for a few rounds", "darkmaster/combat/action-types/multi-round-actions#1"),
    ("she has been charging this spell since last round", "darkmaster/combat/tactical-round-sequence/spell-phase-a#1"),
    ("the mage just started casting this round", "darkmaster/combat/tactical-round-sequence/spell-phase-b#1"),
])
def test_how_many_rounds_an_action_or_spell_has_run_meets_its_rule(query, answer):
    assert answer in ids(query, "darkmaster")



@pytest.mark.parametrize("query", ["my character just went down to 0 health",
                                   "an orc knocked me down to 0 health, now what"])
def test_a_sentence_introducing_a_list_is_followed_by_an_item_of_it(query):
    # "When you reach 0 health:" answers nothing by itself: one of its items (the Injury, the dying
    # timer, the Endurance trial) comes right after it, and the scores still fall hit by hit
    hits = search(query, ruleset="mastery", limit=10)
    order = [h.id for h in hits]
    intro = order.index("mastery/combat/death/reaching-0-health#1")
    assert intro < 2
    assert order[intro + 1] in {f"mastery/combat/death/reaching-0-health#{n}" for n in (2, 3, 4)}
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_an_item_already_above_the_sentence_introducing_its_list_is_not_shown_twice():
    # "combat flow" in Mastery: the list's sentence ("combat follows this structure:") is the second hit
    # and one of its items leads; the item must not be placed again after its sentence
    for query, ruleset in (("combat flow structure", "mastery"), ("basic actions cost", "mastery"),
                           ("action points can be spent", "mastery"), ("attack formulas", "mastery")):
        order = [h.id for h in search(query, ruleset=ruleset, limit=10)]
        assert len(set(order)) == len(order), (query, order)


def test_the_build_counts_the_items_a_sentence_ending_in_a_colon_introduces():
    conn = open_rules().connection()
    items = dict(conn.execute("SELECT u.id, s.items FROM search_units s JOIN units u ON u.rowid = s.rowid "
                              "WHERE u.id LIKE 'mastery/combat/death/%'").fetchall())
    assert items["mastery/combat/death/reaching-0-health#1"] == 3  # the Injury, the timer, the trial
    assert items["mastery/combat/death/going-down#1"] == 2
    assert items["mastery/combat/death/reaching-0-health#2"] == 0  # an item introduces nothing


def test_of_two_phrases_sharing_a_word_the_one_with_more_meaning_wins():
    # "want to hit back": "to hit" (a to-hit bonus) and "hit back" (a counterattack) share "hit"; the
    # phrase of two words that mean something is the one read, and the counterattack is found
    results = search("he missed me and I want to hit back", ruleset="mastery", limit=3)
    assert "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#1" in [h.id for h in results]
    assert "synonym: hit back → counterattack" in results.expansions


@pytest.mark.parametrize("query, ruleset, answer", [
    ("kneeling beside him while he dies", "mastery", "mastery/combat/death/triage#1"),  # adjacent to a dying creature
    ("my buddy is dying beside me", "mastery", "mastery/combat/death/triage#1"),
    ("stuck in melee, I want to run", "mythras", "mythras/combat/action-menu-essentials#4"),  # Engaged, not impaled
    ("she is dying and I run over to help", "mastery", "mastery/combat/death/triage#1"),  # getting adjacent
])
def test_where_a_fighter_stands_meets_the_books_word_for_it(query, ruleset, answer):
    assert answer in ids(query, ruleset)


def test_a_phase_where_nobody_acts_meets_the_rule_that_skips_it():
    # "Phases with nothing to resolve are simply skipped": no one acting is nothing to resolve
    assert "darkmaster/combat/tactical-round-sequence#1" in ids("no one acts in the ranged phase, now what",
                                                                "darkmaster")


@pytest.mark.parametrize("query, ruleset, answer", [
    ("flaming sword damage type", "mastery", "mastery/combat/additional-combat-rules/damage-types#5"),  # enchanted
    ("i grab a mace my style doesn't cover", "mythras", "mythras/combat/combat-styles#1"),  # outside your styles
])
def test_a_gm_name_for_a_kind_of_weapon_meets_the_books_rule_for_it(query, ruleset, answer):
    assert answer in ids(query, ruleset)


def test_without_the_word_list_package_search_still_answers(monkeypatch):
    # installed without its dependencies: no word is known to be common, spelling is corrected as before
    import sys

    from ruleslawyer.rulesdb import words

    monkeypatch.setitem(sys.modules, "spellchecker", None)  # import spellchecker raises ImportError
    words._english_frequencies.cache_clear()
    try:
        assert not words.common_english("lake")
        assert [h.id for h in search("reprisel attack", ruleset="mastery", limit=1)]
    finally:
        monkeypatch.undo()
        words._english_frequencies.cache_clear()
    assert words.common_english("lake")


def test_every_blind_question_gets_distinct_hits_in_falling_score_order():
    # whatever the ranking policy moves (a list's item after its sentence, another ruleset's best hit
    # up), no unit is shown twice and the scores never rise down the list: over every tuning question
    from pathlib import Path

    blind = Path(__file__).parent / "search_quality" / "blind"
    rules = open_rules()
    for path in sorted(blind.glob("tuning*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()[::12]):  # a twelfth of each set
            q = json.loads(line)
            for ruleset in (q["ruleset"], None) if n % 4 == 0 else (q["ruleset"],):  # every ruleset: a quarter
                hits = search(q["q"], ruleset=ruleset, limit=10, rules=rules)
                order = [h.id for h in hits]
                assert len(set(order)) == len(order), (q["q"], ruleset, order)
                scores = [h.score for h in hits]
                assert scores == sorted(scores, reverse=True), (q["q"], ruleset, scores)


def test_the_item_after_a_nested_list_still_follows_the_sentence_introducing_its_list(tmp_path):
    # the item holding the word comes after a nested list: it is still one of the sentence's items
    rules = _house_rules(tmp_path, "## Wyvern\n\nWhen a wyvern breathes fire:\n\n- Everyone nearby ducks:\n"
                                   "  - Duck left\n  - Duck right\n  - Duck down\n- Roll a scorch trial\n")
    hits = search("wyvern breathes fire roll", ruleset="house", limit=3, rules=rules)
    assert [h.text for h in hits[:2]] == ["When a wyvern breathes fire:", "Roll a scorch trial"]


def test_backing_out_of_a_fight_meets_disengaging():
    # "back out" is a way of leaving melee: Darkmaster disengages in the Other Actions Phase
    assert "darkmaster/combat/tactical-round-sequence/other-actions-phase#1" in ids(
        "I back out of the fight with the orc", "darkmaster")


@pytest.mark.parametrize("query, ruleset, answer", [
    ("an avalanche is coming down on us", "mythras", "mythras/combat/charge-evade-outmanoeuvre#2"),  # Evade the threat
    ("he stands on the ridge above us and swings down", "darkmaster",
     "darkmaster/combat/tactical-round-sequence/melee-phase#3"),  # higher ground: a Positional Bonus
    ("the archer climbed on a crate to shoot down at me", "mastery",
     "mastery/combat/actions-and-reactions/movement/terrain#7"),  # something stood on: Elevation
])
def test_a_threat_or_a_height_described_in_the_scene_meets_its_rule(query, ruleset, answer):
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize("query, ruleset, answer", [
    ("can I ready an attack for when he comes", "mythras", "mythras/combat/action-menu-essentials#2"),  # Delay, Interrupt
    ("is there an upkeep step", "darkmaster", "darkmaster/combat/tactical-round-sequence/assessment-phase#1"),
])
def test_another_games_word_for_waiting_or_upkeep_meets_the_books(query, ruleset, answer):
    assert answer in ids(query, ruleset)


def test_action_points_a_gm_did_not_spend_meet_the_rule_for_unused_ap():
    # "didn't spend" is the negation of spending: Mythras's "Unused AP vanish at Round's end"
    assert "mythras/combat/setup#3" in ids("the action points I didn't spend, what happens", "mythras")


@pytest.mark.parametrize("query, ruleset, fix", [
    ("outmanuver what happens to the ones who fail", "mythras", "spelling: outmanuver → outmaneuver"),
    ("outmanuever costs how many ap", "mythras", "spelling: outmanuever → outmaneuver"),
    ("who fougth first", "darkmaster", "spelling: fougth → fought"),
])
def test_a_misspelt_american_or_irregular_form_is_corrected_to_the_form_the_data_maps(query, ruleset, fix):
    # "outmaneuver" is no word of the rules but the synonym data's spelling of their "outmanoeuvre";
    # a misspelling of it is corrected to it, which then reaches the book's word
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    compiled = fulltext._compiled(query, ruleset, conn, data)
    assert fix in compiled.notes
    if "outman" in query:
        assert "mythras/combat/charge-evade-outmanoeuvre#1" in ids(query, ruleset, 5) or \
            "mythras/combat/charge-evade-outmanoeuvre#3" in ids(query, ruleset, 5)


@pytest.mark.parametrize("query, ruleset, answer", [
    ("what happens when my character hits 0 health", "mastery", "mastery/combat/death/reaching-0-health#4"),
    ("what happens when my character drops to 0 health", "mastery", "mastery/combat/death/reaching-0-health#4"),
])
def test_my_character_is_the_player_not_a_word_to_match(query, ruleset, answer):
    # "my character" is "I": the rows that mention "a character" are no better for it
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    groups = [p.fts for g in fulltext._compiled(query, ruleset, conn, data).groups for p in g.parts]
    assert not any('"character"' in fts for fts in groups), groups
    assert any('"character"' in p.fts for g in fulltext._compiled("can a character stabilize a friend", ruleset,
                                                                      conn, data).groups for p in g.parts)
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize("query, dying", [
    ("what die do I roll for a trauma", False), ("which die is rolled for initiative", False),
    ("roll the tier die", False), ("what happens if I die", True), ("can my horse die", True),
])
def test_the_die_rolled_is_not_dying(query, dying):
    # "what die", "the die": the one rolled; "if I die": the death, whose forms the rules write "dying"
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    parts = " ".join(p.fts for g in fulltext._compiled(query, "mastery", conn, data).groups for p in g.parts)
    assert ('"dying"' in parts) is dying, parts


@pytest.mark.parametrize("query, ruleset, section", [
    ("Firearms", "mythras", "mythras/combat/firearms-change-the-economy"),
    ("triggered", "mastery", "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap"),
])
def test_one_word_leading_a_chapters_section_title_names_that_section(query, ruleset, section):
    # "Firearms" is how a GM names the section "Firearms change the economy": its rules come up,
    # though they match only through its heading
    assert any(i == section or i.startswith(section + "#") for i in ids(query, ruleset))


def test_a_word_leading_a_supplement_title_does_not_put_it_before_the_chapter():
    # "size" begins the supplement's "Size and parrying"; the chapter's parry Size rule still leads
    assert ids("size", "mythras", 1)[0].startswith("mythras/combat/")


@pytest.mark.parametrize("query, ruleset, answer", [
    ("dodge instead of parry", "mythras", "mythras/combat/charge-evade-outmanoeuvre#2"),
    ("dodge an attack instead of blocking", "mythras", "mythras/combat/charge-evade-outmanoeuvre#2"),
    ("evade rather than parry", "mythras", "mythras/combat/charge-evade-outmanoeuvre#2"),
])
def test_what_follows_instead_of_weighs_less_than_what_is_asked(query, ruleset, answer):
    # "X instead of Y" asks about X: a unit listing both (Reactive: Parry, Evade, ...) no longer wins
    assert ids(query, ruleset, 1) == [answer]


def test_the_rest_of_a_move_is_splitting_movement_not_resting():
    # "the rest of my move" is what is left of it: Mastery's moving again, not resting to heal
    from ruleslawyer.rulesdb import fulltext

    query = "can I move a bit, attack, then finish the rest of my move"
    conn, data = fulltext._data(open_rules())
    assert not any("→ healing" in n for n in fulltext._compiled(query, "mastery", conn, data).notes)
    assert "mastery/combat/actions-and-reactions/movement#3" in ids(query, "mastery")


@pytest.mark.parametrize("query", ["the sentry is dozing at his post", "the guard nodded off, I shoot him"])
def test_a_dozing_guard_is_an_unaware_target(query):
    assert "mythras/combat/ranged-combat#2" in ids(query, "mythras")


@pytest.mark.parametrize("query, ruleset, answer", [
    ("we're lying in wait for the caravan, what DC do the guards roll", "mastery",
     "mastery/combat/startle-and-ambush/ambush#1"),  # lying in wait: laying an ambush
    ("the cultist is up on the altar steps and I'm swinging at him from below", "mastery",
     "mastery/combat/actions-and-reactions/movement/terrain#7"),  # from below: the other has elevation
    ("I readied my halberd for when the thief comes through the door", "mastery",
     "mastery/combat/combat-flow#10"),  # readied for when: Hold for Trigger
    ("are turns back and forth reacting to each other or does everyone decide at once", "mastery",
     "mastery/combat#2"),  # at once, back and forth: individual decisions, not consecutive ones
    ("two of my party are in melee with the wolf and I want to shoot it", "mastery",
     "mastery/combat/actions-and-reactions/attack#5"),  # allies in melee with the target: the Aiming Trial's DC
])
def test_a_scene_told_in_table_words_meets_the_rule_it_turns_on(query, ruleset, answer):
    assert answer in ids(query, ruleset)


def test_up_on_is_not_high_ground():
    # "opens up on me" is gunfire, not a height: "up on" alone is no synonym of elevation
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert not any("elevation" in n for n in fulltext._compiled("the gunman opens up on me", "mythras", conn, data).notes)


def test_cast_a_spell_is_one_thing_asked_not_two():
    # "cast a spell" weighs as one group in Mastery: the rest of the question (scrapping a declared
    # action) is not outweighed by two groups for one idea
    from ruleslawyer.rulesdb import fulltext

    query = "can I scrap my declared attack and cast a spell instead"
    conn, data = fulltext._data(open_rules())
    groups = fulltext._compiled(query, "mastery", conn, data).groups
    assert sum(any('"spell"' in p.fts or '"cast"' in p.fts for p in g.parts) for g in groups if not g.bonus) == 1
    assert "mastery/combat/combat-flow#11" in ids(query, "mastery")


@pytest.mark.parametrize("query", ["can i keep fighting at 0 health", "can i stay conscious at 0 health",
                                   "knocked to 0 but i want to keep swinging", "at zero hp can my guy still attack"])
def test_keeping_on_at_0_health_meets_the_trial_that_allows_it(query):
    # the Endurance trial whose success lets you "remain conscious and continue fighting" answers it;
    # rows that only mention taking damage "while at 0 health and fighting on" (Traumas) do not
    top = ids(query, "mastery")
    assert "mastery/combat/death/reaching-0-health#4" in top, top
    assert not any(i.startswith("mastery/combat/wounds-injuries-and-trauma/") for i in top), top


@pytest.mark.parametrize("query, ruleset, answer", [
    ("who gets the alpha strike", "darkmaster", "darkmaster/combat/tactical-round-sequence/melee-phase#4"),
    ("in what order do the phases go", "darkmaster", "darkmaster/combat/tactical-round-sequence#1"),
    ("can I move mid-spell", "mastery", "mastery/combat/actions-and-reactions/casting#7"),
    ("bowmen shooting at me and I have no shield", "mastery", "mastery/combat/actions-and-reactions/defense#14"),
    ("we have the ogre pinned between us", "mastery", "mastery/combat/additional-combat-rules#2"),
    ("lining up a shot with my bow", "mythras", "mythras/combat/ranged-combat#4"),
    ("firing into the fray where my friend is", "mythras", "mythras/combat/ranged-combat#6"),
    ("a dex save rather than a parry", "mythras", "mythras/combat/charge-evade-outmanoeuvre#2"),
    ("they got jumped, can they defend before their turn comes", "mythras", "mythras/combat/surprise#1"),
    ("shooting at max range with my longbow", "mythras", "mythras/combat/ranged-combat#3"),
    ("does the roll keep rolling if I get 98", "darkmaster", "darkmaster/supplement/rolls#4"),
    ("I hold the gate closed, can I do anything else", "darkmaster",
     "darkmaster/combat/action-types/multi-round-actions#1"),
    ("keep my axe poised until the goblin steps through", "darkmaster",
     "darkmaster/combat/action-types/readied-actions#1"),
    ("an orc is at my back, can I whirl around", "mastery", "mastery/combat/actions-and-reactions/movement#5"),
])

def test_the_tuning_halfs_rules_asked_in_other_words_are_found(query, ruleset, answer):
    # the same rules the tuning half asks about, in other players' words (tuning17's kinds)
    assert answer in ids(query, ruleset)


def test_adv_and_disadv_are_mythras_difficulty_grades():
    assert any(i.startswith("mythras/supplement/difficulty-grades") for i in ids("adv/disadv on rolls", "mythras"))


@pytest.mark.parametrize("query, answer", [
    ("automatic success range", "mythras/supplement/skill-rolls#3"),
    ("what's the crit range", "mythras/supplement/skill-rolls#2"),
    ("fumble range", "mythras/supplement/skill-rolls#5"),
])
def test_the_range_of_a_roll_is_its_faces_not_a_distance(query, answer):
    # "success range" asks which faces succeed; the rules for shooting at range are another matter
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert not any("ranged" in n for n in fulltext._compiled(query, "mythras", conn, data).notes)
    assert answer in ids(query, "mythras")
    assert any("range" in n or "ranged" in n for n in fulltext._compiled("long range shot", "mythras", conn, data).notes)


@pytest.mark.parametrize("query", ["what's the penalty for botching the perception check when we get ambushed",
                                   "I failed my perception check, what now"])
def test_a_failed_perception_check_meets_what_a_failed_assessment_roll_does(query):
    assert "darkmaster/combat/tactical-round-sequence/assessment-phase#3" in ids(query, "darkmaster")


def test_getting_weighs_as_filler():
    # "after getting ambushed": getting is how the GM says it, not a word to match
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    groups = fulltext._compiled("after getting ambushed", "darkmaster", conn, data).groups
    getting = [g for g in groups if not g.bonus and g.parts[0].fts == '"getting"']
    ambushed = [g for g in groups if not g.bonus and g.parts[0].fts == '"ambushed"']
    assert getting and ambushed and getting[0].weight < 0.5 * ambushed[0].weight


@pytest.mark.parametrize("query, ruleset, answer", [
    ("rolling 97 or higher", "darkmaster", "darkmaster/supplement/rolls#4"),
    ("what if I roll 03 or less", "darkmaster", "darkmaster/supplement/rolls#2"),
])
def test_a_number_or_higher_is_the_faces_from_it_not_a_word_to_match(query, ruleset, answer):
    # "97 or higher" asks about the roll; "Ties are broken by the higher CMB" is no answer
    assert ids(query, ruleset, 1) == [answer]


def test_a_fight_breaking_out_is_the_start_of_combat_not_a_broken_bone():
    top = ids("who acts first each round once a fight breaks out", "mastery", 5)
    assert not any("/trauma-table#" in i for i in top), top


@pytest.mark.parametrize("query, answer", [
    ("archers are shooting at me and I only have a club", "mastery/combat/actions-and-reactions/defense#14"),
    ("swapping my bow for a mace, which phase", "mastery/combat/action-points/initiative-phases#7"),
])
def test_a_weapon_named_in_a_scene_weighs_less_than_what_is_asked(query, answer):
    # the weapon's speed class (a synonym of every weapon name) weighs half: the rule asked leads
    assert ids(query, "mastery", 1) == [answer]


def _group_weights(query: str, ruleset: str) -> dict[str, float]:
    """``{first part's FTS5 text: weight}`` of the query's groups (word pairs left out)."""
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    return {g.parts[0].fts: g.weight for g in fulltext._compiled(query, ruleset, conn, data).groups if not g.bonus}


@pytest.mark.parametrize("particle", ["out", "off", "up", "down", "away", "over"])
def test_the_particle_of_a_phrasal_verb_weighs_as_filler(particle):
    # "comes off", "burst out", "back down": the particle is how it is said, not what is asked ("back" is
    # no particle in "from the back": it is not filler)
    weight = _group_weights(f"the reeds {particle}", "mythras")
    assert weight[f'"{particle}"'] < 0.5 * weight['"reeds"'], weight


@pytest.mark.parametrize("word", ["but", "though", "because", "wanna", "gonna", "gotta"])
def test_a_conjunction_or_a_spoken_contraction_weighs_as_filler(word):
    # "I declared an attack but now I wanna drink a potion": "but" is in many rules ("but before the
    # roll is made") and "wanna" in none; neither is what is asked
    weight = _group_weights(f"the reeds {word}", "mastery")
    assert weight[f'"{word}"'] < 0.5 * weight['"reeds"'], weight


def test_a_rule_holding_only_but_is_no_answer():
    # the Defense rule's "but before the roll is made" shares nothing else with the question
    assert "mastery/combat/actions-and-reactions/defense#2" not in ids("I said I'd attack but now I wanna drink a potion",
                                                                     "mastery")


@pytest.mark.parametrize("query, ruleset, fix", [
    ("lunging to strike first", "darkmaster", "spelling: lunging → lunge"),  # not "lurking", nor Mastery's "lung"
])
def test_a_form_of_a_rules_word_is_corrected_to_that_word_in_the_ruleset_asked(query, ruleset, fix):
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    notes = fulltext._compiled(query, ruleset, conn, data).notes
    assert fix in notes and not any(n.startswith("spelling: lunging → lurking") for n in notes), notes


@pytest.mark.parametrize("query, ruleset, answer", [
    ("when do the swords clash", "darkmaster", "darkmaster/combat/tactical-round-sequence/melee-phase#1"),
    ("cranking the windlass on my crossbow", "darkmaster", "darkmaster/combat/action-types/multi-round-actions#1"),
    ("I got tripped by the ogre", "darkmaster", "darkmaster/combat/tactical-round-sequence/assessment-phase#2"),
    ("the goblin leaves my reach, can I swing", "mastery",
     "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2"),
    ("keep her alive, she's bleeding out next to me", "mastery", "mastery/combat/death/triage#1"),
    ("hiding in the bushes for the patrol", "mastery", "mastery/combat/startle-and-ambush/ambush#1"),
    ("orcs burst out of the trees", "mythras", "mythras/combat/surprise#1"),
    ("I unload on the cultists, mag dump", "mythras", "mythras/combat/firearms-change-the-economy#1"),
    ("shooting across the valley at the scout", "mythras", "mythras/combat/ranged-combat#3"),
])
def test_a_scene_asked_the_other_way_round_meets_its_rule(query, ruleset, answer):
    # tuning19's kinds: the scene at the table for a rule the tuning half named
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize("query, ruleset, answer", [
    ("fractured my thigh, days of rest", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#32"),
    ("I shout a warning to the others, does it cost AP", "mythras", "mythras/combat/action-menu-essentials#3"),
    ("he only ever trained with sword and shield but grabs an axe", "mythras", "mythras/combat/combat-styles#1"),
    ("used up both my actions and the ogre swings at me", "mythras", "mythras/combat/the-attack-parry-exchange#11"),
])
def test_tuning2_asked_in_other_words_meets_its_rule(query, ruleset, answer):
    # tuning20's kinds: a bone fractured, a warning called out, a weapon he never trained with, no AP left
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize("query, ruleset, answer", [
    ("what does CMB stand for", "darkmaster", "darkmaster/supplement/rolls#1"),
    ("CMB acronym", "darkmaster", "darkmaster/supplement/rolls#1"),
    ("two swords, equal reach, who first", "darkmaster", "darkmaster/combat/tactical-round-sequence/melee-phase#2"),
    ("pull my sword from my belt and attack", "darkmaster", "darkmaster/combat/action-types#3"),
    ("my archer has been sighted on the gap since last round", "darkmaster",
     "darkmaster/combat/tactical-round-sequence/ranged-phase-a#1"),
])
def test_darkmaster_asked_in_other_words_meets_its_rule(query, ruleset, answer):
    # "stands for", "acronym" ask what a term means; equal reach is a tie; a weapon off the belt is drawn
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize("query", ["how long until my character dies", "what happens if he died"])
def test_dying_is_not_the_tier_die(query):
    # "dies", "he died": the death; the stem "die" is also the die rolled, so a "tier die" row is no match
    top = search(query, ruleset="mastery", limit=3)
    assert not any("tier die" in h.text.lower() for h in top), [h.id for h in top]
    assert any("/combat/death/" in h.id for h in top)


@pytest.mark.parametrize("query, ruleset, answer", [
    ("I said I'd swing at the orc but now I want to drink a potion", "mastery", "mastery/combat/combat-flow#11"),
    ("can I wait to see the roll before I defend", "mastery", "mastery/combat/actions-and-reactions/defense#2"),
    ("what can I do when it's not my turn", "mythras", "mythras/combat/action-menu-essentials#2"),
    ("protect my wounded arm from the next hit", "mythras", "mythras/combat/action-menu-essentials#3"),
])
def test_a_change_of_mind_a_roll_seen_first_and_off_turn_actions_meet_their_rules(query, ruleset, answer):
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize("query, answer", [
    ("my spell vs the enemy wizard's, whose goes first", "darkmaster/combat/tactical-round-sequence/spell-phase-a#1"),
    ("what mix of actions can I take together", "darkmaster/combat/action-types/combining-actions#1"),
    ("how many kinds of actions are there", "darkmaster/combat/action-types#1"),
])
def test_two_casters_a_mix_of_actions_and_the_kinds_of_action_meet_their_rules(query, answer):
    assert answer in ids(query, "darkmaster")


@pytest.mark.parametrize("query", ["me and the enemy wizard both cast", "my spell vs the enemy caster's"])
def test_two_casters_lead_with_the_spell_phase_that_orders_them(query):
    assert ids(query, "darkmaster", 1) == ["darkmaster/combat/tactical-round-sequence/spell-phase-a#1"]


@pytest.mark.parametrize("query, answer", [
    ("only got my bow when the bandit hacks at me, can I defend", "mastery/combat/actions-and-reactions/defense#6"),
    ("can I shoot the goblin point blank", "mastery/combat/actions-and-reactions/defense#8"),
    ("can he deflect arrows with his sword", "mastery/combat/actions-and-reactions/defense#14"),
    ("our skilled healer sets a broken arm, does she need a check", "mastery/combat/wounds-injuries-and-trauma/trauma-table#11"),
])
def test_mastery_asked_in_other_words_meets_its_rule(query, answer):
    assert answer in ids(query, "mastery")


@pytest.mark.parametrize("query", ["what does a crit do in mythras", "crit bonus damage?", "what does a critical parry get me"])
def test_what_a_critical_does_meets_the_special_effects_it_opens(query):
    # what a crit is (one tenth of the skill) is not what it does: Maximise Damage, Bypass Armor, Enhance Parry
    assert "mythras/combat/special-effects#1" in ids(query, "mythras")


def test_a_completely_empty_health_pool_is_reaching_0_health():
    top = ids("what are the rules once my health pool is completely empty", "mastery")
    assert any(i.startswith("mastery/combat/death/reaching-0-health") for i in top), top


# -- chapter before supplement among the first hits -------------------------------------------


@pytest.mark.parametrize("query, ruleset, chapter", [
    ("delay my turn or ready an action", "mythras", "mythras/combat/action-menu-essentials#2"),
    ("dc of a startle check", "mastery", "mastery/combat/startle-and-ambush/startle#1"),
    ("blocked an ogre's greataxe with my dagger, how much gets through", "mythras",
     "mythras/combat/the-attack-parry-exchange#9"),
])
def test_a_second_supplement_hit_gives_way_to_a_close_chapter_rule_in_the_first_three(query, ruleset, chapter):
    # the supplement restates the chapter: two of its rows or notes in the first three push the
    # chapter's own rule, scoring within CHAPTER_SHARE of them, down to fourth
    first = search(query, ruleset=ruleset, limit=10)
    assert chapter in [h.id for h in first[:3]]
    assert sum("/supplement/" in h.id for h in first[:3]) <= 1


def test_supplement_hits_still_lead_where_no_chapter_rule_comes_close():
    # Mythras's difficulty grades are a table only the supplement holds: its rows keep the first places
    first = [h.id for h in search("difficulty grade multipliers", ruleset="mythras", limit=3)]
    assert sum("/supplement/difficulty-grades" in i for i in first) >= 2


# -- idioms ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "ruleset", "answer"), [
    ("they got the drop on us", "mythras", "mythras/combat/surprise#1"),
    ("the bandits got the drop on us", "mastery", "mastery/combat/startle-and-ambush/ambush#1"),
    ("orcs got the drop on the party", "darkmaster", "darkmaster/combat/tactical-round-sequence/assessment-phase#2"),
])
def test_an_idioms_one_word_weighs_less_than_what_the_idiom_means(query, ruleset, answer):
    # "got the drop on" is an ambush: "Drop an item" and "Force drops one step" hold its one
    # meaningful word and must not come before the surprise rules
    first = search(query, ruleset=ruleset, limit=3)
    assert answer in [h.id for h in first]
    assert "drop" not in first[0].text.lower()


# -- being attacked is defending; when a defense is declared -----------------------------------


@pytest.mark.parametrize(("query", "answer"), [
    ("a skeleton lunges at me and all I'm holding is a sling", "mastery/combat/actions-and-reactions/defense#6"),
    ("can I block after he rolls to hit", "mastery/combat/actions-and-reactions/defense#2"),
])
def test_being_attacked_and_the_moment_to_declare_a_defense_meet_the_defense_rules(query, answer):
    # "lunges at me" is the defender's side (Mastery defends, it does not attack back); choosing to
    # defend is declared before the attack roll is made
    assert answer in ids(query, "mastery")


def test_when_armour_kicks_in_is_the_exchange_step_subtracting_it():
    # "kick in" and "come off" say when armour applies: step 7 of the exchange subtracts it
    assert "mythras/combat/the-attack-parry-exchange#10" in ids("at what step does armor kick in", "mythras")


@pytest.mark.parametrize("query", ["how long am i dazed", "how long am i impaired"])
def test_how_long_a_condition_lasts_meets_the_rule_stepping_it_down(query):
    # "How long" asks for a duration, not a length; each Impaired tier steps down at the start of a round
    assert "mastery/combat/startle-and-ambush/results#4" in ids(query, "mastery")


@pytest.mark.parametrize("query, word", [("how long is the fight", "long"), ("they got the drop on us", "drop")])
def test_the_one_word_of_a_question_phrase_or_idiom_counts_less_than_what_it_means(query, word):
    # "how long" asks for a duration (the synonyms' seconds, duration), no long weapon; "got the drop
    # on" is an ambush: the word as typed counts IDIOM_FACTOR, below the synonyms
    from ruleslawyer.rulesdb import fulltext, query as query_module

    conn, data = fulltext._data(open_rules())
    groups = fulltext._compiled(query, "mastery", conn, data).groups
    factor = {p.fts: p.factor for g in groups for p in g.parts}
    assert factor[f'"{word}"'] == query_module.IDIOM_FACTOR


def test_a_roll_made_at_will_meets_when_the_rules_allow_it():
    # "at will" asks when the roll may be made: only when an effect demands it or the GM deems it so
    assert "darkmaster/combat/tactical-round-sequence/assessment-phase#2" in ids(
        "may a player call for a perception assessment at will", "darkmaster")


# -- a GM's short forms ------------------------------------------------------------------------


def _abbreviations():
    from ruleslawyer.rulesdb.synonyms import abbreviations

    return abbreviations()


@pytest.mark.parametrize(("short", "word"), _abbreviations())
def test_a_short_form_is_read_as_its_word(short, word):
    # "dmg" is damage, "rnd" a round: the question ranks as if the word were typed, and says so
    for ruleset in ("mastery", "mythras", "darkmaster"):
        typed = search(f"what about {short} in a fight", ruleset=ruleset, limit=5)
        plain = search(f"what about {word} in a fight", ruleset=ruleset, limit=5)
        assert [h.id for h in typed] == [h.id for h in plain]
        assert f"short form: {short} → {word}" in typed.expansions


def test_short_forms_reach_the_phrases_they_stand_in():
    # "hit loc" is the hit location phrase; "opp atk" an attack of opportunity (Mastery's Reprisal Attack)
    assert ids("hit loc for the chest", "mythras") == ids("hit location for the chest", "mythras")
    assert "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2" in ids("opp atk", "mastery")


def test_u_ur_and_w_are_question_words():
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    groups = fulltext._compiled("can u parry w ur shield", "mythras", conn, data).groups
    searched = {w for g in groups for p in g.parts for a in p.alts for w in a.words}
    assert not {"u", "ur", "w"} & searched


@pytest.mark.parametrize("entry", [{"dmg": "damage points"}, {"hit loc": "location"}, {"dmg": 3}])
def test_an_abbreviation_that_is_not_one_word_for_one_word_is_refused(tmp_path, monkeypatch, entry):
    from ruleslawyer.errors import RulesDataError
    from ruleslawyer.rulesdb import synonyms

    bad = tmp_path / "common.json"
    bad.write_text(json.dumps({"synonyms": [], "abbreviations": entry}), encoding="utf-8")
    monkeypatch.setattr(synonyms, "COMMON_FILE", bad)
    synonyms.abbreviations.cache_clear()
    try:
        with pytest.raises(RulesDataError, match="one word for one word"):
            synonyms.abbreviations()
    finally:
        monkeypatch.undo()
        synonyms.abbreviations.cache_clear()


def test_an_irregular_form_weighs_as_the_form_the_rules_use_most():
    # "threw" is rare in the rules; "throw" is the word asked about, and weighs as it
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    weight = {q: [g.weight for g in fulltext._compiled(q, "darkmaster", conn, data).groups if not g.bonus][0]
              for q in ("threw", "throw")}
    assert weight["threw"] == weight["throw"]


@pytest.mark.parametrize(("query", "ruleset", "answer"), [
    ("arrow to the skull, what location numbers", "mythras", "mythras/supplement/hit-location#8"),  # skull: Head
    ("I had a new plan halfway through the round", "mastery", "mastery/combat/combat-flow#11"),
    ("the duelist skips blocking my thrust", "mythras", "mythras/combat/the-attack-parry-exchange#11"),
])
def test_table_talk_for_a_body_part_a_changed_plan_or_a_skipped_parry_meets_its_rule(query, ruleset, answer):
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize(("query", "ruleset", "fix", "answer"), [
    ("ambushed and flatfooted", "mythras", "flatfooted → flat footed", "mythras/combat/surprise#1"),
    ("what is a weaponlength", "darkmaster", "weaponlength → weapon length",
     "darkmaster/combat/tactical-round-sequence/melee-phase#1"),
])
def test_two_rules_words_written_as_one_are_read_as_two(query, ruleset, fix, answer):
    results = search(query, ruleset=ruleset, limit=3)
    assert f"spelling: {fix}" in results.expansions
    assert answer in [h.id for h in results]


def test_a_closed_compound_is_split_only_where_the_rules_hold_its_words_side_by_side():
    # "footedflat": both words are in the rules, never as "footed flat"
    results = search("footedflat", ruleset="mythras", limit=3)
    assert not any(n.startswith("spelling: footedflat") for n in results.expansions)


@pytest.mark.parametrize("query", ["what is a d% roll", "roll 1d% for the trauma"])
def test_the_percentile_die_written_d_percent_is_d100(query):
    results = search(query, ruleset="mastery", limit=3)
    assert any(n.startswith("short form: ") and n.endswith("d100") for n in results.expansions)
    assert "mastery/combat/wounds-injuries-and-trauma/trauma-table#6" in [h.id for h in results]  # "Roll 1d100"


@pytest.mark.parametrize("query", ["is cmb just my to-hit", "is a readied action like a 5e ready action",
                                   "are phases kind of like turns"])
def test_is_x_basically_y_asks_what_x_is(query):
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert fulltext._compiled(query, "darkmaster", conn, data).definition


@pytest.mark.parametrize("query", ["is there just one attack", "is it like that for everyone", "are we just waiting"])
def test_a_yes_no_question_about_something_else_is_no_definition(query):
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert not fulltext._compiled(query, "darkmaster", conn, data).definition


def test_a_guessed_definition_meets_the_definition():
    assert ids("is cmb just my to-hit", "darkmaster", 1) == ["darkmaster/supplement/rolls#1"]


def test_boggy_ground_is_rugged_terrain():
    assert "mastery/combat/actions-and-reactions/movement/terrain#1" in ids("we fight on boggy ground, how far can I move",
                                                                          "mastery")


def test_categories_of_a_thing_are_its_types():
    # "damage categories" is the Damage Types section, not the three categories of weapon speed
    top = ids("what kinds of damage categories exist", "mastery")
    assert all(i.startswith("mastery/combat/additional-combat-rules/damage-types#") for i in top)


def test_little_actions_doubled_up_are_half_actions():
    assert ids("which little actions can I double up with an attack", "darkmaster", 1) == [
        "darkmaster/combat/action-types#3"]


def test_a_gm_phrase_written_as_one_word_is_read_as_the_phrase():
    # "freehit" is the synonym data's "free hit" (an attack of opportunity), though the rules never
    # hold "free hit"; "outta" is "out"
    results = search("the goblin steps outta reach, do i get a freehit", ruleset="mastery", limit=3)
    assert {"spelling: freehit → free hit", "short form: outta → out"} <= set(results.expansions)
    assert results[0].id == "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2"


@pytest.mark.parametrize(("query", "ruleset", "answer"), [
    ("kobolds are pelting me with rocks and I only have an axe, can I knock them away", "mastery",
     "mastery/combat/actions-and-reactions/defense#14"),  # missiles at me: defending against ranged attacks
    ("the orc smacks my shield, can I smack it back", "mastery",
     "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#1"),  # Counterattack
    ("I keep my spear raised and only attack when the goblin comes through", "darkmaster",
     "darkmaster/combat/action-types/readied-actions#1"),
    ("I blew my roll when they sprang out of the bushes", "mastery", "mastery/combat/startle-and-ambush/results#1"),
])
def test_a_scene_told_in_the_first_person_meets_its_rule(query, ruleset, answer):
    assert answer in ids(query, ruleset)


@pytest.mark.parametrize(("query", "ruleset"), [("how does initiative work in mastery", "mastery"),
                                                ("mythras initiative", "mythras"),
                                                ("initiative in darkmaster", "darkmaster")])
def test_the_selected_rulesets_own_name_weighs_as_filler(query, ruleset):
    # the GM names the game they are asking about: "mastery" is no rule to match (Mastery's "Weapon
    # Mastery chapter" must not outweigh its initiative rules)
    weight = _group_weights(query, ruleset)
    assert weight[f'"{ruleset}"'] < 0.5 * weight['"initiative"'], weight


@pytest.mark.parametrize(("query", "answer"), [
    ("freebie actions per round", "darkmaster/combat/action-types#4"),
    ("how many big actions can I take", "darkmaster/combat/action-types#2"),
    ("little things I can do besides attacking", "darkmaster/combat/action-types#3"),
])
def test_action_sizes_in_table_slang_meet_full_half_and_free_actions(query, answer):
    assert answer in ids(query, "darkmaster")


@pytest.mark.parametrize(("query", "ruleset", "answer"), [
    ("five bandits have me boxed in by the wagon, can I weave through them", "mythras",
     "mythras/combat/charge-evade-outmanoeuvre#3"),  # Outmanoeuvre against multiple foes
    ("walk me through a combat round from start to finish", "darkmaster",
     "darkmaster/combat/tactical-round-sequence#1"),  # the nine-phase list
])
def test_being_hemmed_in_and_a_whole_round_asked_for_meet_their_rules(query, ruleset, answer):
    assert answer in ids(query, ruleset)


# -- a number rolled on a table the question names ------------------------------------------


@pytest.mark.parametrize(("query", "ruleset", "row"), [
    ("my fighter took a hit at 0 hp and rolled 25 for trauma, do I get a lasting wound", "mastery",
     "mastery/combat/wounds-injuries-and-trauma/trauma-table#27"),  # 24–25 | Close Call! No Trauma.
    ("the GM had me roll trauma after a hit at zero health and I got a 10", "mastery",
     "mastery/combat/wounds-injuries-and-trauma/trauma-table#17"),  # 8–10
    ("rolled a ten on the trauma table", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#17"),
])
def test_a_number_rolled_on_the_table_named_leads_with_its_row(query, ruleset, row):
    assert ids(query, ruleset, 1) == [row]


def test_a_number_without_its_table_named_lifts_no_row():
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert not fulltext._compiled("I hit for 5 damage", "mythras", conn, data).faces  # no "hit location"
    assert fulltext._compiled("hit location 19", "mythras", conn, data).faces
    assert fulltext._compiled("rolled 97 on d100", "darkmaster", conn, data).faces  # the table's die names it


@pytest.mark.parametrize(("query", "ruleset", "row"), [
    ("rolled ninety-six on trauma", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#58"),  # 86–99
    ("rolled one hundred on trauma", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#59"),  # 100
    ("rolled ninety seven on d100", "darkmaster", "darkmaster/supplement/rolls#4"),  # 96–00, not 90 and 7
])
def test_a_number_in_words_rolled_on_the_table_named_leads_with_its_row(query, ruleset, row):
    assert ids(query, ruleset, 1) == [row]


@pytest.mark.parametrize("ruleset", [None, "mastery", "mythras", "darkmaster"])
@pytest.mark.parametrize(("short", "word"), _abbreviations())
def test_a_misspelt_short_form_is_read_as_its_word(short, word, ruleset):
    # "dmgs" is corrected to the short form "dmg" of a synonym phrase ("dmg bonus"), which is read as
    # damage: a short form never reaches the search as a ruleset of its own (0 hits)
    typo = short + short[-1]
    results = search(f"{typo} in combat", ruleset=ruleset, limit=3)
    assert f"spelling: {typo} → {short}" not in results.expansions  # a short form is never what a word is read as
    if f"spelling: {typo} → {word}" in results.expansions:
        assert len(results) > 0


def test_basically_is_no_basic_action():
    assert not any("action-costs" in i for i in ids("is a trial basically a saving throw", "mastery"))


def test_a_die_glued_to_a_number_is_not_read_as_d100():
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert not any(n.startswith("short form: ") for n in fulltext._compiled("11d% and xd%", "mastery", conn, data).notes)


def test_a_number_said_in_words_says_how_it_was_read():
    results = search("rolled sixty on trauma", ruleset="mastery", limit=1)
    assert "roll: sixty is 60, in 60–61 (Trauma Table)" in results.expansions
    assert results[0].id == "mastery/combat/wounds-injuries-and-trauma/trauma-table#49"


@pytest.mark.parametrize(("query", "ruleset"), [("failed startle by 4", "mastery"),
                                                ("I beat his parry by 12", "mythras")])
def test_a_number_that_is_no_roll_on_a_table_finds_no_row_of_it(query, ruleset):
    # "by 4" is a margin, not a face of the Trauma Table: no table row is offered for it unless the
    # question names the table or speaks of a roll
    results = search(query, ruleset=ruleset, limit=5)
    assert not any(n.startswith("roll: ") for n in results.expansions)


@pytest.mark.parametrize(("query", "ruleset", "row"), [
    ("96", "mastery", "mastery/combat/wounds-injuries-and-trauma/trauma-table#58"),  # only a number: a face
    ("rolled a 17", "mythras", "mythras/supplement/hit-location#7"),  # a roll of any table
])
def test_a_bare_number_or_a_roll_still_finds_the_row_holding_it(query, ruleset, row):
    assert row in ids(query, ruleset)


def test_a_spell_prepped_is_a_spell_prepared():
    assert "darkmaster/combat/tactical-round-sequence/spell-phase-a#1" in ids("the spell my mage prepped last round",
                                                                              "darkmaster")


# -- a table read by a number, not rolled -----------------------------------------------------


@pytest.mark.parametrize(("cell", "covers"), [
    ("6–10", (6, 10)), ("101-110", (101, 110)), ("≤5", (0, 5)), ("<= 5", (0, 5)), ("5+", (5, 999_999_999)),
    ("≥12", (12, 999_999_999)), ("3", (3, 3)), ("Easy", None), ("1d20", None), ("", None), ("5 or so", None),
])
def test_a_first_cell_names_the_numbers_it_covers(cell, covers):
    from ruleslawyer.rulesdb.extract import _key_range

    assert _key_range(cell) == covers


def test_the_rows_of_tables_read_by_a_number_store_what_they_cover():
    import sqlite3

    conn = sqlite3.connect(open_rules().ensure())
    keys = {i: (lo, hi) for i, lo, hi in conn.execute(
        "SELECT u.id, k.low, k.high FROM table_keys k JOIN units u ON u.rowid = k.rowid")}
    dm = "mythras/supplement/damage-modifier#"
    assert keys[dm + "2"] == (0, 5) and keys[dm + "3"] == (6, 10) and keys[dm + "18"] == (111, 120)
    assert keys["mastery/supplement/startle-results#4"] == (5, 999_999_999)  # "5+"
    assert keys["mastery/supplement/tier-dice#3"] == (2, 2)
    # a table whose first cells are names, and a rolled table (its faces are its own), have none
    assert not any(i.startswith(("mastery/supplement/named-difficulties#", "mastery/combat/wounds-injuries"))
                   for i in keys)


@pytest.mark.parametrize(("query", "ruleset", "row"), [
    # the number right after the first column's name: "STR+SIZ" 71–80 holds 74
    ("our ogre has STR+SIZ 74, what does he add to damage", "mythras", "mythras/supplement/damage-modifier#14"),
    ("str+siz of 18", "mythras", "mythras/supplement/damage-modifier#5"),  # 16–20
    ("what die do I roll at tier 2", "mastery", "mastery/supplement/tier-dice#3"),
    # the table named, the number anywhere
    ("damage modifier for 28", "mythras", "mythras/supplement/damage-modifier#7"),  # 26–30
])
def test_a_number_given_for_a_table_read_by_it_leads_with_its_row(query, ruleset, row):
    assert ids(query, ruleset, 1) == [row]


def test_a_number_read_on_a_table_says_which_row_holds_it():
    results = search("STR+SIZ 74", ruleset="mythras", limit=1)
    assert "STR+SIZ: 74 is in 71–80 (Damage Modifier)" in results.expansions
    assert results.hits[0].matched_via == ("STR+SIZ: 74 is in 71–80 (Damage Modifier)",)  # the row says it too


def test_a_column_name_with_another_rules_number_does_not_displace_that_rule():
    # "tier 3" names the Tier dice row for tier 3 too, but the question is about Endurance's health
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    assert fulltext._compiled("starting health with endurance tier 3", "mastery", conn, data).keyed
    assert ids("starting health with endurance tier 3", "mastery", 1) == \
        ["mastery/combat/additional-combat-rules/health-types#3"]
    # a number past the table's last row finds no row of it; "tier" with a number elsewhere names none
    assert not fulltext._compiled("STR+SIZ 200", "mythras", conn, data).keyed
    assert not fulltext._compiled("tier of trauma 3", "mastery", conn, data).keyed


@pytest.mark.parametrize(("query", "row"), [
    ("what length is a glaive", "darkmaster/supplement/weapons-by-name#15"),  # polearm
    ("cudgel weapon length", "darkmaster/supplement/weapons-by-name#7"),  # club
    ("does a dirk strike before a sword", "darkmaster/supplement/weapons-by-name#3"),  # dagger
])
def test_a_weapon_the_table_lists_under_another_name_finds_its_row(query, row):
    # Weapons by name lists one name per weapon; a GM names its kin (glaive, cudgel, dirk)
    assert ids(query, "darkmaster", 1) == [row]


@pytest.mark.parametrize("query", ["tier " + "9" * 4301 + " tier 2", "STR+SIZ " + "9" * 4301 + " 5",
                                   "STR+SIZ " + "７" * 4301 + " STR+SIZ 74"])
def test_a_number_too_long_to_read_is_only_a_word(query):
    # any string is a valid query: a number of thousands of digits names no row (and raises nothing)
    assert search(query, ruleset=None, limit=3) is not None


@pytest.mark.parametrize(("query", "first"), [
    ("STR+SIZ 0", "mythras/supplement/damage-modifier#2"),  # ≤5, not the "+0" row
    # past the last row (111–120): no row is the answer, the paragraph saying how it goes on is
    ("STR+SIZ 122", "mythras/supplement/damage-modifier#1"),
])
def test_the_row_covering_a_number_leads_and_the_tables_other_rows_give_way(query, first):
    assert ids(query, "mythras", 1) == [first]


def test_a_number_with_a_sign_or_far_from_the_name_reads_no_row():
    from ruleslawyer.rulesdb import fulltext

    conn, data = fulltext._data(open_rules())
    for query in ("damage modifier +1 step when charging", "STR+SIZ -50", "damage modifier halved for two 2 handed"):
        compiled = fulltext._compiled(query, "mythras", conn, data)
        assert not compiled.keyed, query
        assert not any(" is in " in n for n in compiled.notes), query


def test_a_long_table_read_by_a_number_is_read_a_bounded_number_of_rows(tmp_path):
    import time

    from ruleslawyer.rulesdb import fulltext
    from ruleslawyer.rulesdb.query import MAX_KEYED_ROWS

    rows = "\n".join(f"| {n}+ | r{n} |" for n in range(1, 3001))  # every row covers 3,000 and up
    rules = _house(tmp_path, "---\nruleset: homebrew\nchapter: scores\ntitle: Scores\n---\n\n# Scores\n\n"
                             f"## Score table\n\n| Score | Result |\n|---|---|\n{rows}\n")
    search("score 5", ruleset="homebrew", db=rules.path)  # warm: the handle's data
    start = time.perf_counter()
    hits = search("score 1 2 3 4 5 6 7 8 9 10", ruleset="homebrew", db=rules.path)
    assert time.perf_counter() - start < 2.0
    conn, data = fulltext._data(rules)
    compiled = fulltext._compiled("score 5", "homebrew", conn, data)
    assert len(compiled.keyed) + len(compiled.unkeyed) <= MAX_KEYED_ROWS
    assert hits.hits


@pytest.mark.parametrize(("query", "word"), [
    ("what happens when I roll max on the die", "die"),  # the die rolled, not dying
    ("half damage from parry round up or down", "down"),  # rounding, not a downed character
])
def test_a_word_read_as_what_it_means_here_meets_no_synonym_of_another_sense(query, word):
    results = search(query, ruleset="mythras", limit=3)
    assert not any(e.startswith(f"synonym: {word} →") for e in results.expansions)


@pytest.mark.parametrize(("query", "row"), [
    ("AP to steer my horse mid fight", "mastery/combat/actions-and-reactions/other-actions#7"),  # Mount, Direct
    ("throw myself flat to avoid arrows, AP cost", "mastery/combat/actions-and-reactions/other-actions#10"),  # Prone, Fall
    ("which trauma results are purely cosmetic", "mastery/combat/wounds-injuries-and-trauma/trauma-table#58"),
    ("my face is scarred, am I scarier now", "mastery/combat/wounds-injuries-and-trauma/trauma-table#56"),
])
def test_a_table_row_described_in_table_talk_leads(query, row):
    # a GM describes the row's effect, not its name: steering is Direct, flat is Prone, cosmetic is "No
    # mechanical effect", scarier is Presence (Intimidation)
    assert ids(query, "mastery", 1) == [row]


def test_a_joint_out_of_its_socket_is_dislocated():
    assert set(ids("my shoulder got knocked out of its socket", "mastery", 2)) == {
        "mastery/combat/wounds-injuries-and-trauma/trauma-table#47", "mastery/combat/wounds-injuries-and-trauma/trauma-table#48"}
