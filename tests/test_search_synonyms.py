"""Synonyms and spelling: a GM's words reach the book's, and the result says how."""

from __future__ import annotations

import pytest

from ruleslawyer.rulesdb import connect, search, suggest
from ruleslawyer.rulesdb.extract import WORD_RE, fold, porter_stems
from ruleslawyer.rulesdb.synonyms import COMMON, expand, phrase_table, synonyms


def top(query, ruleset=None, n=3):
    return [h.id for h in search(query, ruleset=ruleset, limit=n)]


def test_hp_finds_health_and_says_so():
    hits = search("HP", ruleset="mastery")
    assert hits and all("health" in h.text.lower() or "Health" in h.breadcrumb for h in hits)
    assert "synonym: HP → health" in hits[0].matched_via
    assert "synonym: HP → health" in hits.expansions


def test_attack_of_opportunity_finds_reprisal_attack():
    hits = search("attack of opportunity", ruleset="mastery")
    assert "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2" in [h.id for h in hits][:3]
    assert any("reprisal attack" in v for h in hits for v in h.matched_via)
    # Plural and inflected forms reach the same entry (keys are matched by stem).
    assert "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2" in top(
        "attacks of opportunity", "mastery")


def test_init_finds_mythras_initiative():
    assert top("init", "mythras", 1) == ["mythras/combat/setup#1"]


def test_crit_finds_critical():
    hits = search("crit", ruleset="mythras")
    assert hits and "Critical" in hits[0].text
    assert any(v.endswith("→ critical") for v in hits[0].matched_via)


def test_block_finds_parry_in_mythras_and_defense_in_mastery():
    mythras = search("block", ruleset="mythras", limit=5)
    # The one unit using the word itself ("a passive block") comes first; Parry rules follow.
    assert "block" in mythras[0].text and mythras[0].matched_via == ()
    assert any("parry" in h.text.lower() and "synonym: block → parry" in h.matched_via for h in mythras[1:])
    mastery = search("block", ruleset="mastery")
    assert "defen" in mastery[0].text.lower()


def test_ruleset_synonyms_apply_only_to_their_own_ruleset():
    # Mastery's "parry -> defense" must not make a Mythras unit match through "defense".
    for h in search("parry", limit=50):
        if h.ruleset != "mastery":
            assert not any("defense" in v or "defend" in v for v in h.matched_via), h


def test_words_matched_as_typed_have_no_note():
    hits = search("flanking", ruleset="mastery")
    assert hits[0].id == "mastery/combat/additional-combat-rules#2"
    assert hits[0].matched_via == ()


def test_spelling_correction_is_applied_and_reported():
    hits = search("flankng bonus", ruleset="mastery")
    assert hits[0].id == "mastery/combat/additional-combat-rules#2"
    assert "spelling: flankng → flanking" in hits[0].matched_via
    assert "flanking" in suggest("flankng")


def test_to_dict_carries_matched_via():
    d = search("HP", ruleset="mastery").to_dict()
    assert d["expansions"] and isinstance(d["hits"][0]["matched_via"], list)


def test_synonym_tables():
    assert expand("HP") == ("health",)
    assert "reprisal attack" in expand("attack of opportunity", "mastery")
    assert "parry" in expand("block", "mythras") and "parry" not in phrase_table(COMMON).get(("dodge",), ())
    assert all(s.ruleset is None for s in synonyms(COMMON))
    assert {s.ruleset for s in synonyms("mythras")} == {None, "mythras"}


def _stems_of(ruleset: str | None) -> set[str]:
    conn = connect()
    sql = "SELECT heading || ' ' || text FROM units" + (" WHERE ruleset = ?" if ruleset else "")
    words = {fold(w) for (t,) in conn.execute(sql, (ruleset,) if ruleset else ()) for w in WORD_RE.findall(t)}
    return set(porter_stems(words).values())


@pytest.mark.parametrize("ruleset", ["mastery", "mythras", "darkmaster"])
def test_every_expansion_of_a_ruleset_reaches_its_rules(ruleset):
    # A synonym whose book words never occur would be dead data.
    have = _stems_of(ruleset)
    for syn in synonyms(ruleset):
        if syn.ruleset != ruleset:
            continue
        for phrase in syn.expand:
            words = phrase.split()
            stems = porter_stems(words)
            assert all(stems[w] in have for w in words if w.isalpha()), (ruleset, phrase)


def test_every_common_expansion_reaches_some_rules():
    have = _stems_of(None)
    for syn in synonyms(COMMON):
        assert any(all(porter_stems([w]).get(w) in have for w in p.split() if w.isalpha()) for p in syn.expand), syn


@pytest.mark.parametrize(("words", "row"), [
    # Bash knocks the foe back; Grip is the unarmed hold (supplement Special Effects rows ¶7, ¶13);
    # Trip Opponent (¶8) knocks them down
    (("knockback", "knock back", "knock-back", "shove"), "mythras/supplement/special-effects#7"),
    (("grapple", "grab", "wrestle", "grappling"), "mythras/supplement/special-effects#13"),
    (("knock down", "knocked down"), "mythras/supplement/special-effects#8"),
])
def test_a_gms_words_for_special_effects_find_them(words, row):
    for w in words:
        hits = top(w, "mythras")
        # the Effect's row and the chapter's own list of Special Effects naming it come first (the
        # chapter's list may lead: chapters rank before the kit's supplement)
        assert set(hits[:2]) == {row, "mythras/combat/special-effects#1"}, w


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mastery", "caltrops", "mastery/combat/actions-and-reactions/movement/terrain#5"),
    ("mastery", "hit the deck", "mastery/combat/actions-and-reactions/other-actions#10"),
    ("mastery", "both sides surprised", "mastery/combat/startle-and-ambush/startle#1"),
    ("mastery", "only have a bow, can I block", "mastery/combat/actions-and-reactions/defense#6"),
    ("mastery", "harsher optional rules", "mastery/combat/wounds-injuries-and-trauma/trauma-table#2"),
    ("mastery", "catch a potion", "mastery/combat/actions-and-reactions/other-actions#1"),
    ("mastery", "sword and board", "mastery/combat/combat-flow#4"),
    ("mythras", "disarm", "mythras/supplement/special-effects#9"),
    ("mythras", "set my spear against a charge", "mythras/combat/action-menu-essentials#1"),
    ("mythras", "gun jams", "mythras/supplement/special-effects#24"),
    ("mythras", "throw sand in his eyes", "mythras/supplement/special-effects#15"),
    ("mythras", "does armour slow my initiative", "mythras/combat/setup#1"),
    ("mythras", "feint", "mythras/supplement/special-effects#27"),
    ("darkmaster", "all-out attack", "darkmaster/combat/tactical-round-sequence/melee-phase#4"),
    ("darkmaster", "cast on the fly", "darkmaster/combat/tactical-round-sequence/spell-phase-b#1"),
    ("darkmaster", "fight defensively", "darkmaster/supplement/parry#1"),
    ("darkmaster", "two free actions", "darkmaster/combat/action-types#4"),
    ("darkmaster", "arrow nocked", "darkmaster/combat/tactical-round-sequence/ranged-phase-a#1"),
    ("darkmaster", "how lethal is combat", "darkmaster/combat/the-tactical-round#1"),
])
def test_a_concepts_table_words_reach_its_rule(ruleset, words, unit):
    # Each concept's words from other games reach the rule that defines it, by its real id.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mastery", "is he stable now", "mastery/combat/death/triage#1"),
    ("mastery", "blinded", "mastery/combat/wounds-injuries-and-trauma/trauma-table#12"),
    ("mythras", "restrained", "mythras/supplement/special-effects#13"),
    ("mythras", "can't see", "mythras/supplement/special-effects#15"),
    ("darkmaster", "dazzled by a bright flash", "darkmaster/combat/tactical-round-sequence/assessment-phase#2"),
    ("darkmaster", "grapple", "darkmaster/combat/tactical-round-sequence/other-actions-phase#1"),
])
def test_common_condition_words_reach_each_books_rule(ruleset, words, unit):
    # General table words for a condition (common.json concepts) reach each book's own rule.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mythras", "what's my AC", "mythras/combat/the-attack-parry-exchange#10"),
    ("mythras", "saving throw", "mythras/combat/charge-evade-outmanoeuvre#2"),
    ("darkmaster", "what's my AC", "darkmaster/supplement/parry#1"),
    ("darkmaster", "disadvantage", "darkmaster/combat/tactical-round-sequence/melee-phase#3"),
])
def test_common_roll_words_reach_each_books_rule(ruleset, words, unit):
    # AC, saving throws and advantage (common.json concepts without common words) reach each book's own rule.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mastery", "reach weapon", "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#2"),
    ("mastery", "dash action", "mastery/combat/actions-and-reactions/movement#4"),
    ("mastery", "lose concentration", "mastery/combat/actions-and-reactions/casting#3"),
    ("mythras", "concentration", "mythras/supplement/action-menu#13"),
    ("mythras", "dash action", "mythras/combat/movement-snapshot#1"),
    ("darkmaster", "can I run full speed", "darkmaster/combat/action-types#2"),
])
def test_common_movement_and_casting_words_reach_each_books_rule(ruleset, words, unit):
    # Dash, reach and concentration (common.json concepts) reach each book's own rule, not a namesake:
    # Mastery's "reach 0 health" for reach, Mythras's Interrupt (after a Delay) for concentration.
    assert unit in top(words, ruleset, 3)


def test_concentration_does_not_reach_mythras_interrupt():
    assert not any("interrupt" in v for h in search("lose concentration", ruleset="mythras", limit=10)
                   for v in h.matched_via)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mythras", "attack of opportunity", "mythras/combat/charge-evade-outmanoeuvre#3"),
    ("darkmaster", "attack of opportunity", "darkmaster/combat/tactical-round-sequence/other-actions-phase#1"),
    ("mythras", "death saves", "mythras/combat/practical-habits#3"),
    ("darkmaster", "death saves", "darkmaster/combat/tactical-round-sequence/assessment-phase#1"),
    ("mastery", "fire resistance", "mastery/combat/additional-combat-rules/damage-types#1"),
])
def test_common_attack_and_damage_words_reach_each_books_rule(ruleset, words, unit):
    # Opportunity attacks, death saves and damage resistance (common.json concepts) reach each book's rule.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mythras", "fight from horseback", "mythras/combat/combat-styles#2"),
    ("darkmaster", "fight from horseback", "darkmaster/combat/tactical-round-sequence/melee-phase#3"),
    ("mastery", "cavalry", "mastery/combat/actions-and-reactions/other-actions#8"),
    ("mythras", "two-weapon fighting", "mythras/combat/combat-styles#1"),
    ("mastery", "spell slots", "mastery/combat/action-points/initiative-phases#6"),
])
def test_common_mounted_weapon_and_spell_words_reach_each_books_rule(ruleset, words, unit):
    # Mounted combat, two-weapon fighting and spell slots (common.json concepts) reach each book's rule.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mastery", "chance to hit", "mastery/combat/actions-and-reactions/attack#4"),
    ("mastery", "roll to hit in melee", "mastery/combat/actions-and-reactions/attack#3"),
    ("darkmaster", "incapacitated", "darkmaster/combat/tactical-round-sequence/assessment-phase#3"),
])
def test_to_hit_and_incapacitated_reach_each_books_rule(ruleset, words, unit):
    # Mastery's to-hit is its automatic melee hit and its Aiming Trial; incapacitated joins the stunned concept.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mythras", "knock the sword out of his hand", "mythras/supplement/special-effects#9"),
    ("darkmaster", "knock the sword out of his hand",
     "darkmaster/combat/tactical-round-sequence/other-actions-phase#1"),
    ("mythras", "bull rush", "mythras/supplement/special-effects#7"),
    ("darkmaster", "bull rush", "darkmaster/combat/tactical-round-sequence/other-actions-phase#1"),
    ("mastery", "five foot step", "mastery/combat/actions-and-reactions/triggered-reactions-all-cost-1-ap#3"),
    ("mythras", "five foot step", "mythras/supplement/action-menu#6"),
])
def test_common_maneuver_words_reach_each_books_rule(ruleset, words, unit):
    # Disarm, shove and the five-foot step (common.json concepts) reach each book's own rule.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mastery", "stealth", "mastery/combat/startle-and-ambush/ambush#1"),
    ("mythras", "stay hidden", "mythras/combat/firearms-change-the-economy#1"),
    ("darkmaster", "sneak up on them", "darkmaster/combat/tactical-round-sequence/assessment-phase#1"),
])
def test_common_stealth_words_reach_each_books_rule(ruleset, words, unit):
    # Hiding and stealth (a common.json concept) reach each book's own rule: Mastery's ambush group trial,
    # Mythras's not being seen and Take Cover, Darkmaster's characters caught unaware.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mastery", "I rolled a 20", "mastery/combat/actions-and-reactions/attack#11"),
    ("darkmaster", "I rolled a 20", "darkmaster/supplement/rolls#4"),
    ("mythras", "I'm at 0 hp", "mythras/combat/practical-habits#3"),
    ("darkmaster", "negative hp", "darkmaster/combat/tactical-round-sequence/assessment-phase#1"),
    ("mastery", "revive my downed friend", "mastery/combat/death/triage#1"),
])
def test_common_hp_and_top_roll_words_reach_each_books_rule(ruleset, words, unit):
    # A natural 20, zero hit points and a downed ally (common.json) reach each book's own rule.
    assert unit in top(words, ruleset, 3)


@pytest.mark.parametrize(("words", "unit"), [
    ("my sword breaks", "mythras/supplement/special-effects#10"),
    ("my shield gets smashed", "mythras/supplement/special-effects#11"),
    ("aim for a weak spot", "mythras/supplement/special-effects#2"),
    ("bleeding out", "mythras/supplement/special-effects#6"),
    ("fighting from the ground", "mythras/combat/charge-evade-outmanoeuvre#2"),
    ("pick up my sword", "mythras/supplement/action-menu#7"),
    ("wrestle the knife from him", "mythras/supplement/special-effects#9"),
])
def test_mythras_table_situations_reach_their_rule(words, unit):
    # What a player says is happening (a broken weapon, a weak spot, fighting from the ground) reaches
    # the Special Effect or action that decides it.
    assert unit in top(words, "mythras", 3)


@pytest.mark.parametrize(("words", "unit"), [
    ("fighting from the ground", "mastery/combat/actions-and-reactions/other-actions#11"),
    ("I ran out of action points", "mastery/combat/actions-and-reactions/defense#3"),
    ("no actions left this round, can I still block", "mastery/combat/actions-and-reactions/defense#16"),
    ("my shield breaks", "mastery/combat/combat-flow#4"),
    ("armour didn't stop the hit", "mastery/combat/actions-and-reactions/defense#16"),
    ("heal in combat", "mastery/combat/death/triage#1"),
])
def test_mastery_table_situations_reach_their_rule(words, unit):
    # What a player says is happening (lying on the ground, no AP left, a broken shield, healing mid-fight)
    # reaches the row or rule that decides it.
    assert unit in top(words, "mastery", 3)


@pytest.mark.parametrize(("ruleset", "words", "unit"), [
    ("mastery", "fighting on ice", "mastery/combat/actions-and-reactions/movement/terrain#3"),
    ("mastery", "my armor is broken", "mastery/combat/additional-combat-rules/health-types#1"),
    ("mastery", "what if I do nothing on my turn", "mastery/combat/action-points/use-it-or-lose-it#4"),
    ("mythras", "fighting three guys at once", "mythras/combat/charge-evade-outmanoeuvre#3"),
    ("mythras", "he's down on the ground, can I hit him", "mythras/combat/ranged-combat#5"),
    ("mythras", "I didn't see them coming", "mythras/combat/surprise#1"),
    ("mythras", "my armour is too heavy, I act last", "mythras/combat/setup#1"),
    ("mythras", "disengage and run", "mythras/combat/charge-evade-outmanoeuvre#3"),
])
def test_more_table_situations_reach_their_rule(ruleset, words, unit):
    # Paraphrases of what is happening (ice underfoot, broken armour, several foes, a foe on the ground,
    # an unseen attack, heavy armour, breaking off) reach the book's own rule.
    assert unit in top(words, ruleset, 3)
