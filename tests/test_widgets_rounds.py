"""Round panels, headless: add combatants, declare actions, the order with reasons."""

import random

from ruleslawyer.widgets import DarkmasterRoundPanel, MasteryRoundPanel


def add_mastery(panel, name, side, weapon, **kw):
    panel.name.value, panel.side.value, panel.weapon.value = name, side, weapon
    for k, v in kw.items():
        getattr(panel, k).value = v
    panel.roster.add_button.click()


def test_mastery_round_phases_side_roll_and_hold():
    # Side roll scripted 2: 1–3 means the PCs go first in each phase. Aldric's dagger is Fast, Cora's
    # sword Moderate but held to Slow, Brute's maul Slow. Order: Fast: Aldric; Slow: PCs first (Cora),
    # then the enemies (Brute).
    panel = MasteryRoundPanel(script="side: 2")
    add_mastery(panel, "Aldric", "pcs", "dagger")
    add_mastery(panel, "Brute", "enemies", "maul")
    add_mastery(panel, "Cora", "pcs", "sword", hold_to="slow")
    assert "Cora" in panel.roster.view.value and "hold to slow" in panel.roster.view.value
    panel.button.click()
    r = panel.result
    assert (r.side_roll, str(r.first)) == (2, "pcs")
    order = [(slot["phase"], name) for slot in r.order for name in slot["combatants"]]
    assert order == [("fast", "Aldric"), ("slow", "Cora"), ("slow", "Brute")]
    out = panel.output.value
    assert 'data-side-roll="2"' in out and "natural phase moderate, acts in slow" in out


def test_mastery_round_seeded_side_roll():
    # Seed 7: random.Random(7).randint(1, 6) == 3 -> PCs first (1–3).
    assert random.Random(7).randint(1, 6) == 3
    panel = MasteryRoundPanel(seed=7)
    add_mastery(panel, "Aldric", "pcs", "dagger")
    panel.run()
    assert panel.result.side_roll == 3 and str(panel.result.first) == "pcs"


def test_mastery_round_startle_of_an_unaware_goblin():
    # Unaware goblin, Agility and Perception tier 1 (d2 each), scripted 1 and 1 = 2 against the Startle
    # DC 6: failed by 4 -> "by 3-4 tier 2 Stunned". Side roll scripted 5: the enemies go first.
    panel = MasteryRoundPanel(script="startle_agility: 1; startle_perception: 1; side: 5")
    add_mastery(panel, "Goblin", "enemies", "dagger", unaware=True)
    add_mastery(panel, "Aldric", "pcs", "sword", unaware=False)
    panel.run()
    (st,) = panel.result.startle
    assert (st.total, st.dc, st.failed_by, st.impaired_tier, st.condition) == (2, 6, 4, 2, "Stunned")
    assert str(panel.result.first) == "enemies"
    panel.ambush_dc.value = 3  # 2 vs an ambush DC of 3: failed by 1 -> tier 1 Dazed
    panel.run()
    assert panel.result.startle[0].condition == "Dazed"


def test_mastery_round_duplicate_name_and_empty_round_are_messages():
    panel = MasteryRoundPanel()
    panel.run()
    assert '<b class="rl-field">combatants</b>' in panel.output.value
    add_mastery(panel, "Aldric", "pcs", "dagger")
    add_mastery(panel, "Aldric", "pcs", "dagger")
    assert len(panel.combatants) == 1 and "already in the round" in panel.output.value
    panel.roster.remove_button.click()
    assert panel.combatants == []


def add_dm(panel, name, cmb, side, action, type_, kind, length=""):
    panel.name.value, panel.cmb.value, panel.side.value = name, cmb, side
    panel.action.value, panel.type.value, panel.kind.value, panel.length.value = action, type_, kind, length
    panel.roster_controls.add_button.click()


def test_darkmaster_trs_order_with_reasons_and_refusal():
    # NPCs declare first. The Orc (CMB 20) moves (Half) in the Move Phase and attacks with a Longest
    # spear (Full); the Hero (CMB 30) attacks with a Long longsword (Full). In the Melee Phase the
    # longer weapon strikes first: the Orc's Longest spear, then the Hero's Long sword. Bad declares
    # two Full Actions: the second is refused (a character performs a single Full Action per Round).
    panel = DarkmasterRoundPanel()
    add_dm(panel, "Orc", 20, "npc", "Move", "Half", "move")
    add_dm(panel, "Orc", 20, "npc", "Spear attack", "Full", "melee", "Longest")
    add_dm(panel, "Hero", 30, "player", "Longsword attack", "Full", "melee", "Long")
    add_dm(panel, "Bad", 5, "player", "Swing", "Full", "melee", "Long")
    add_dm(panel, "Bad", 5, "player", "Swing again", "Full", "melee", "Long")
    panel.button.click()
    r = panel.result
    assert r.declaration_order[0] == "Orc"
    melee = next(p for p in r.phases if str(p.phase) == "Melee Phase")
    assert [p.combatant for p in melee.placements][:2] == ["Orc", "Hero"]
    assert [f.field for f in r.refusals] == ["combatants.Bad.actions[1]"]
    out = panel.output.value
    assert 'data-refusals="1"' in out and 'data-rule-id="darkmaster/combat/action-types#2"' in out
    assert 'data-phase="Melee Phase" data-combatant="Orc"' in out
    panel.roster_controls.remove_button.click()
    panel.run()
    assert panel.result.refusals == ()


def test_darkmaster_lengths_come_from_the_db():
    panel = DarkmasterRoundPanel()
    assert [v for _, v in panel.length.options][1:] == ["Hand", "Short", "Long", "Longest"]


def test_mastery_hold_for_a_trigger_before_the_natural_phase_cannot_react():
    # Aldric (sword: Moderate) holds for "the archer breaks cover", which happens in the Fast phase,
    # before his natural phase: "If the trigger occurs before your natural phase, you cannot react".
    panel = MasteryRoundPanel(script="side: 2")
    add_mastery(panel, "Aldric", "pcs", "sword", trigger="the archer breaks cover", trigger_occurs="fast")
    add_mastery(panel, "Archer", "enemies", "shortbow")
    assert "hold for &#x27;the archer breaks cover&#x27;" in panel.roster.view.value
    panel.run()
    info = panel.result.combatants["Aldric"]
    assert info["acting_phase"] is None and "cannot react" in info["hold"]
    assert [n for slot in panel.result.order for n in slot["combatants"]] == ["Archer"]
    row = panel.output.value.split('<tr data-combatant="Aldric" class="rl-not-acting">')[1].split("</tr>")[0]
    assert "cannot react" in row


def test_darkmaster_an_attack_declared_as_a_half_action_is_refused_with_its_rule():
    # "a melee or ranged attack or a non-instant Spell declared as Half or Free is refused, citing
    # action-types#2" (Full Actions: "making a melee or ranged attack ...").
    panel = DarkmasterRoundPanel()
    add_dm(panel, "Orc", 20, "npc", "Spear attack", "Half", "melee", "Longest")
    panel.run()
    assert [f.rule_id for f in panel.result.refusals] == ["darkmaster/combat/action-types#2"]
    assert 'class="rl-error rl-refusal" data-field="combatants.Orc.actions[0].type"' in panel.output.value
    assert "declare it as Full, not Half" in panel.output.value


def test_both_round_panels_hand_their_rules_handle_to_the_engine(monkeypatch, tmp_path, shipped_db):
    import ruleslawyer.rulesets.darkmaster as darkmaster
    import ruleslawyer.rulesets.mastery as mastery
    from ruleslawyer.rulesdb.handle import open_rules

    db = shipped_db(tmp_path / "other.db")
    seen = []
    for module in (mastery, darkmaster):
        real = module.sequence_round

        def spy(*args, _real=real, **kwargs):
            seen.append(kwargs.get("rules"))
            return _real(*args, **kwargs)
        monkeypatch.setattr(module, "sequence_round", spy)
    m = MasteryRoundPanel(script="side: 2", rules=db)
    add_mastery(m, "Aldric", "pcs", "dagger")
    m.run()
    d = DarkmasterRoundPanel([{"name": "Orc", "actions": [{"name": "Club", "kind": "melee", "weapon": "club"}]}],
                             rules=db)
    d.run()
    assert seen == [open_rules(db), open_rules(db)] and m.result is not None and d.result is not None
