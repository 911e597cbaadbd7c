"""Fame and Fortune: the great person deck (FF-4 to FF-7), played through the installed
expansion: drawing until a calling with a marker left (rejects face up to the bottom),
cards kept secret, abilities used only with a marker of the calling on the map, one card
per marker with the excess discarded at random when a marker is killed, and a deck
rebuilt from its face-up bottom when it runs out."""

from __future__ import annotations

import pytest

from .conftest import MENU, Table


def gain(t: Table, player: int, *answers: str) -> list[str]:
    """Run the expansion's `gain_great_person()` for `player`; the prompts asked."""
    return [d.prompt for d in t.run("gain_great_person()", player, answers=list(answers))]


# ============================================================================ FF-4
@pytest.mark.rule("FF-4")
def test_ff4_a_card_whose_calling_has_no_marker_left_goes_face_up_to_the_bottom_and_another_is_drawn() -> None:
    """The rulebook's example: Archimedes (no scientist marker left) to the bottom, then St.
    Francis of Assisi, with a humanitarian marker taken."""
    t = Table(3, seed=0)
    p = t.active
    t.empty_markers("scientist")
    t.stack("great_person_deck", "st_francis_of_assisi", "archimedes")  # Archimedes on top
    humanitarians = t.value("markers_left(humanitarian)", p)
    gain(t, p, "keep the great humanitarian in reserve")
    assert t.cards("great_person_bottom") == ["archimedes"]
    assert t.cards("great_person_hand", p) == ["st_francis_of_assisi"]
    assert t.cards("markers_in_reserve", p) == ["humanitarian_marker"]
    assert t.value("markers_left(humanitarian)", p) == humanitarians - 1
    assert f"P{p + 1} draws Archimedes, a great scientist: no scientist marker is left, so it goes face up to the " \
           "bottom" in t.st.log
    # kept face down and secret: the others see one hidden card, its owner sees it
    other = (p + 1) % 3
    hand = f"great_person_hand[P{p + 1}]"
    assert t.state.view(other)["zones"][hand] == {"hidden": 1, "revealed": []}
    assert t.state.view(p)["zones"][hand] == ["St. Francis of Assisi"]


@pytest.mark.rule("FF-4")
def test_ff4_the_marker_goes_on_the_map_in_a_province_of_yours() -> None:
    t = Table(3, seed=0)
    p = t.active
    t.stack("great_person_deck", "hannibal")
    mine = t.value("my_provinces(me)", p)
    gain(t, p, "place the great general in a province of yours", t.value("name of top of my_provinces(me)", p))
    assert t.cards("markers_on_map", p) == ["general_marker"]
    assert t.value("(top of (great_person_markers in my markers_on_map))'s stands_in is top of my_provinces(me)", p) is True
    assert mine and t.value("on_map(me, general)", p) is True


@pytest.mark.rule("FF-4")
def test_ff4_no_marker_left_at_all_no_great_person() -> None:
    t = Table(3, seed=0)
    p = t.active
    for calling in ("artist", "engineer", "general", "humanitarian", "merchant", "scientist"):
        t.empty_markers(calling)
    deck = len(t.zone("great_person_deck"))
    assert gain(t, p) == []
    assert t.cards("great_person_hand", p) == [] and len(t.zone("great_person_deck")) == deck
    assert f"P{p + 1} gains no great person: no card of a calling with a marker left remains" in t.st.log


@pytest.mark.rule("FF-4")
def test_ff4_the_greeks_draw_two_valid_great_people_and_keep_one() -> None:
    t = Table(3, seed=0)
    p = t.active
    t.seat(p, "pericles")  # Democracy: great_person_choice + 1
    t.empty_markers("scientist")
    t.stack("great_person_deck", "jakob_fugger", "archimedes", "homer")  # Homer, Archimedes (rejected), Fugger
    asked = gain(t, p, "Jakob Fugger", "keep the great merchant in reserve")
    assert asked[0] == "choose a card in your great people drawn to choose from"
    assert t.cards("great_person_hand", p) == ["jakob_fugger"]
    assert t.cards("great_person_bottom") == ["archimedes", "homer"]  # the reject, then the one passed over


# ============================================================================ FF-5
def at_building(seed: int = 0) -> tuple[Table, int]:
    t = Table(3, seed=seed)
    p = t.active
    t.to_phase_menu(3, p)
    return t, p


@pytest.mark.rule("FF-5")
def test_ff5_a_great_person_is_used_only_with_a_marker_of_its_calling_on_the_map() -> None:
    t, p = at_building()
    t.put("jakob_fugger", "great_person_hand", p)
    t.put("merchant_marker", "markers_in_reserve", p)
    t.refresh()
    assert not t.starting("Call on Jakob Fugger")  # its marker is in reserve
    t.pick_start("Place your great merchant from reserve")
    t.pick(t.labels()[0])
    gold = t.counter("gold", p)
    t.pick_start("Call on Jakob Fugger (great merchant): Gain 3 gold.")
    assert t.counter("gold", p) == gold + 3
    # revealed, and spent: discarded face up to the bottom of the deck
    assert f"P{p + 1} reveals Jakob Fugger, a great merchant: Gain 3 gold." in t.st.log
    assert t.cards("great_person_bottom")[-1] == "jakob_fugger" and t.cards("great_person_hand", p) == []


@pytest.mark.rule("FF-5")
def test_ff5_a_lasting_great_person_stays_face_up_and_applies_while_its_marker_stands() -> None:
    t, p = at_building()
    t.put("william_shakespeare", "great_person_hand", p)
    t.run("let M be top of (great_person_markers in marker_supply where its calling is artist)\n"
          "move M to my markers_on_map\nset M's stands_in to top of my_provinces(me)", p)
    t.refresh()
    t.pick_start("Call on William Shakespeare")
    assert t.cards("great_people_shown", p) == ["william_shakespeare"]
    renown = t.counter("renown", p)
    t.until(lambda t: t.active != p)
    t.to_phase_menu(3, p)
    assert t.counter("renown", p) >= renown + 1 and f"P{p + 1}'s William Shakespeare earns 1 renown" in t.st.log


@pytest.mark.rule("FF-5")
def test_ff5_a_great_person_answers_in_a_response_window_when_its_moment_comes() -> None:
    """Sun Tzu: "when a province of yours is attacked", offered to the defender in the attack's window."""
    t = Table(3, seed=2)
    p = t.active
    q = (p + 1) % 3
    t.to_phase_menu(4, p)
    t.clear_map()
    t.land("frostgate", p, level=1, armies=4)
    t.land("kettleby", q, level=1, armies=2)
    t.put_leader(p, "frostgate")
    t.put_leader(q, "kettleby")
    t.put("sun_tzu", "great_person_hand", q)
    t.run("let M be top of (great_person_markers in marker_supply where its calling is general)\n"
          "move M to my markers_on_map\nset M's stands_in to kettleby", q)
    t.refresh()
    t.pick_start("Attack Kettleby")
    if t.decision.prompt.startswith("your leader engages"):
        t.pick("no")
    assert t.decision.prompt == "respond, or pass" and t.decision.player == q
    t.pick_start("Call on Sun Tzu")
    assert t.of("armies", "frostgate") == 2


# ============================================================================ FF-6
@pytest.mark.rule("FF-6")
def test_ff6_a_killed_marker_discards_the_excess_card_of_its_calling_at_random() -> None:
    """The rulebook's example: two artist markers, William Shakespeare (face up) and
    Michelangelo (face down); a marker is killed: one of the two cards goes, at random."""
    t = Table(3, seed=2)
    p = t.active
    q = (p + 1) % 3
    t.to_phase_menu(4, p)
    t.clear_map()
    t.land("frostgate", p, level=1, armies=5)
    t.land("kettleby", q, level=1, armies=1)
    t.land("brannoch", q, level=1, armies=1)
    t.put_leader(p, "frostgate")
    t.put_leader(q, "brannoch")
    t.put("william_shakespeare", "great_people_shown", q)
    t.put("michelangelo", "great_person_hand", q)
    t.run("for each V in [kettleby, brannoch]:\n"
          "    let M be top of (great_person_markers in marker_supply where its calling is artist)\n"
          "    move M to my markers_on_map\n    set M's stands_in to V", q)
    t.refresh()
    assert t.value("great_people_held(me, artist)", q) == 2 and t.value("markers_held(me, artist)", q) == 2
    t.stack("attack_deck", "rout")
    t.pick_start("Attack Kettleby")
    while t.decision.prompt in ("your leader engages in the attack (1 energy)", "respond, or pass"):
        t.pick("no" if t.decision.prompt.startswith("your leader") else "pass")
    t.pick(t.labels()[-1])  # the armies moving in
    if t.decision.prompt == "your leader moves into Kettleby too":
        t.pick("no")
    assert t.controller("kettleby") == p
    assert t.value("markers_held(me, artist)", q) == 1 and t.value("great_people_held(me, artist)", q) == 1
    gone = t.cards("great_person_bottom")[-1]
    assert gone in ("william_shakespeare", "michelangelo")
    assert f"P{q + 1}'s great artist in Kettleby is killed" in t.st.log
    assert any(line.startswith(f"P{q + 1} holds more great artists than artist markers") for line in t.st.log)


# ============================================================================ FF-7
@pytest.mark.rule("FF-7")
def test_ff7_a_deck_run_out_is_rebuilt_from_its_face_up_bottom_shuffled() -> None:
    t = Table(3, seed=0)
    p = t.active
    for pid in t.zone("great_person_deck"):  # every card face up at the bottom: the deck shows one on top
        t.st.zones[t.lay.game_zone["great_person_bottom"]].append(pid)
    t.st.zones[t.lay.game_zone["great_person_deck"]].clear()
    for pid in t.zone("great_person_bottom"):
        t.st.loc[pid] = t.lay.game_zone["great_person_bottom"]
    t.st.changed()
    assert len(t.zone("great_person_bottom")) == 42 and t.zone("great_person_deck") == []
    order = t.zone("great_person_bottom")
    gain(t, p, lambda d: d.labels()[-1])  # the marker kept in reserve
    deck, hand = t.zone("great_person_deck"), t.zone("great_person_hand", p)
    assert t.zone("great_person_bottom") == [] and len(deck) == 41 and len(hand) == 1  # turned over: a new deck
    assert sorted(deck + hand) == sorted(order)
    assert deck != [x for x in order if x in deck]  # and shuffled


@pytest.mark.rule("FF-4")
def test_ff4_a_city_built_draws_a_great_person() -> None:
    t, p = at_building()
    t.clear_map()
    t.land("ulmsted", p, level=2, armies=1)
    t.put_leader(p, "ulmsted")
    t.give(p, wood=1, stone=2, gold=1)
    t.stack("great_person_deck", "marco_polo")
    t.refresh()
    t.pick_start("Build a city in Ulmsted")
    assert t.decision.prompt == "choose one" and t.labels() == ["place the great merchant in a province of yours",
                                                                "keep the great merchant in reserve"]
    t.pick("place the great merchant in a province of yours")
    assert t.cards("great_person_hand", p) == ["marco_polo"] and t.cards("markers_on_map", p) == ["merchant_marker"]
    assert t.of("level", "ulmsted") == 3


@pytest.mark.rule("FF-4")
def test_ff4_the_deck_is_shuffled_when_the_game_begins() -> None:
    from .conftest import spec

    content = [d.id for d in spec().defs if d.kind == "great_person"]
    orders = {tuple(Table(3, seed=seed).cards("great_person_deck")) for seed in range(2)}
    assert all(sorted(order) == sorted(content) and list(order) != content for order in orders) and len(orders) == 2


@pytest.mark.rule("FF-5")
def test_ff5_florence_nightingale_heals_only_a_leader_on_the_board() -> None:
    """Issue 35: a captured or incapacitated leader is off the board: Florence Nightingale
    is not offered then (nothing to heal), and heals the leader once it is back."""
    t, p = at_building()
    q = (p + 1) % 3
    t.put("florence_nightingale", "great_person_hand", p)
    t.put("humanitarian_marker", "markers_in_reserve", p)
    t.refresh()
    t.pick_start("Place your great humanitarian from reserve")
    t.pick(t.labels()[0])
    t.set_counter("health", 2, p)
    t.give(p, gold=5)
    t.run("capture(me, player after me)", p)
    t.refresh()
    assert not t.value("on_board(me)", p)
    assert not t.starting("Call on Florence Nightingale")
    t.pick(t.starting("Pay the ransom")[0])
    assert t.value("on_board(me)", p) and t.counter("gold", q) >= 3
    t.pick_start("Call on Florence Nightingale")
    assert t.counter("health", p) == t.value("max_health(me)", p)
