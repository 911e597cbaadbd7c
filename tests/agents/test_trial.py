"""`legacies try` (agents/trial.py): a scenario sets the stage, the item's effect runs as
the chosen seat with its decisions answered, and the difference reads with names. A
refusal or an error leaves nothing half-tried and says what to change."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.agents.trial import Scenario, TrialError, run_trial
from legacies.cli.main import app
from legacies.pipeline.ruleset import load_ruleset


@pytest.fixture(scope="module")
def spec():  # type: ignore[no-untyped-def]
    loaded = load_ruleset("legacies")
    assert loaded.spec is not None
    return loaded.spec


def test_a_card_with_a_choice_shows_what_it_changed(spec) -> None:  # type: ignore[no-untyped-def]
    trial = run_trial(spec, "C1003", Scenario(seed=3, play=6, seat=2, counters={2: {"gold": 50}}), answers=[1])
    assert trial.item == "Spoils of War" and trial.seat == "P2"
    assert [(who, prompt, taken) for who, prompt, _, taken in trial.asked] == [("P2", "choose an industry", "Law")]
    assert trial.changes == ["P2's gold: 50 -> 48", "Law's space: 3 -> 4"]


def test_an_effect_attribute_and_opponents_decisions(spec) -> None:  # type: ignore[no-untyped-def]
    trial = run_trial(spec, "politician", Scenario(seed=3, play=6), effect="underhanded_action", answers=[1, 0, 2])
    assert [(who, taken) for who, _, _, taken in trial.asked] == [("P2", "pay 20 gold"), ("P3", "lose 2 fame")]
    assert trial.changes == ["P3's fame: 4 -> 2", "P2's gold: 30 -> 10"] and trial.unused == 1


def test_run_source_and_zone_changes_by_name(spec) -> None:  # type: ignore[no-untyped-def]
    trial = run_trial(spec, "S26", Scenario(seed=3, play=6), run="put_in_play(S26)", answers=[0])
    assert "P1's current successor: + The Prodigal Son" in trial.changes
    assert any(line.startswith("P1's gold: ") for line in trial.changes)


def test_a_refusal_and_a_missing_setup_say_what_to_change(spec) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TrialError, match="the rules refuse `C1003` here: it is playable when you have at least 2 gold "
                                         r"\(the game may still be in its setup: --play N"):
        run_trial(spec, "C1003", Scenario(seed=3), answers=[0])  # its price, its requires: (issue 35), in setup
    with pytest.raises(TrialError, match="the rules refuse `C1003` here: P1 cannot pay 2 gold"):
        run_trial(spec, "C1003", Scenario(seed=3), run="pay 2 gold", answers=[0])
    with pytest.raises(TrialError, match="play: N"):
        run_trial(spec, "S26", Scenario(seed=3), run="put_in_play(S26)")
    with pytest.raises(TrialError, match="no answer is left"):
        run_trial(spec, "C1003", Scenario(seed=3, play=6, counters={1: {"gold": 9}}))
    with pytest.raises(TrialError, match="its effects: opportunity"):
        run_trial(spec, "C1003", Scenario(), effect="nope")
    with pytest.raises(TrialError, match="not a player counter"):
        run_trial(spec, "C1003", Scenario(counters={1: {"gould": 3}}))


def test_a_scenario_file_and_the_command(tmp_path: Path) -> None:
    path = tmp_path / "stage.yaml"
    path.write_text("players: 4\nseed: 2\nplay: 8\nas: 2\ncounters:\n  2: {gold: 100}\n"
                    "before: |\n  raise law's space by 2\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["try", "C1003", "--scenario", str(path), "--choose", "2"])
    assert result.exit_code == 0, result.output
    assert "Spoils of War (C1003), played by P2" in result.output
    assert "P2's gold: 100 -> 98" in result.output and "Law's space: 5 -> 6" in result.output
    path.write_text("players: four\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["try", "C1003", "--scenario", str(path)])
    assert result.exit_code == 2 and "`players` must be a whole number" in result.output
    result = CliRunner().invoke(app, ["try", "C1003", "--choose", "x"])
    assert result.exit_code == 2 and "--choose takes option numbers" in result.output


def test_a_list_of_effects_is_tried_one_at_a_time_and_usage_errors_exit_2(spec) -> None:  # type: ignore[no-untyped-def]
    trial = run_trial(spec, "socialite", Scenario(seed=3, play=6), effect="benefits.2")
    assert trial.changes == ["P1's gold: 60 -> 65", "P1's dye: 0 -> 1"]  # the Socialite's space-2 benefit
    with pytest.raises(TrialError, match="is a list of 5 effects: name one, benefits.1 to benefits.5") as caught:
        run_trial(spec, "socialite", Scenario(seed=3, play=6), effect="benefits")
    assert caught.value.usage
    with pytest.raises(TrialError, match="game may still be in its setup") as refused:
        run_trial(spec, "C1003", Scenario(seed=3), run="pay 2 gold", answers=[0])
    assert not refused.value.usage
    runner = CliRunner()
    assert runner.invoke(app, ["try", "C1003", "--play", "6", "--as", "7"]).exit_code == 2
    assert runner.invoke(app, ["try", "C1003"]).exit_code == 1  # the rules refuse it: not a usage error


def test_try_finds_an_item_by_name_or_id_in_any_case_and_suggests_near_misses() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["try", "spoils of war", "--play", "6", "--choose", "1"])
    assert result.exit_code == 0 and result.output.startswith("Spoils of War (C1003)")
    assert runner.invoke(app, ["try", "c1003", "--play", "6", "--choose", "1"]).exit_code == 0
    result = runner.invoke(app, ["try", "socailite"])
    # every installed ruleset is searched: Gears of Time's Sailing is near too
    assert result.exit_code == 2 and "did you mean " in result.output and "`socialite` (The Socialite)" in result.output


def test_a_card_that_is_not_playable_is_refused_with_its_condition() -> None:
    loaded = load_ruleset("legacy")
    assert loaded.spec is not None
    with pytest.raises(TrialError, match="it is playable when there is at least one of your legacies") as caught:
        run_trial(loaded.spec, "swap", Scenario(play=2))
    assert not caught.value.usage


def test_an_internal_error_is_said_as_one_and_a_python_bug_is_not_hidden(spec, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A runaway effect stops on an internal error, reported as such (never as "the rules
    refuse"); a bug outside the engine's errors reaches the caller unchanged."""
    with pytest.raises(TrialError, match="stopped on an internal error") as caught:
        run_trial(spec, "C1003", Scenario(seed=3, play=6), run="repeat 1000 times:\n    repeat 1000 times:\n"
                  "        gain 1 fame")
    assert "refuse" not in str(caught.value)
    from legacies.interpreter import sandbox

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(sandbox, "start", broken)
    with pytest.raises(ZeroDivisionError, match="a bug"):
        run_trial(spec, "C1003", Scenario(seed=3, play=6))


def test_every_change_is_listed_modifiers_values_and_whose_token_moved_where(spec) -> None:  # type: ignore[no-untyped-def]
    """Issue 17: a card that set a modifier printed "nothing changed" (only its timed
    modifier changed), and a token moved read "track politician:1: + relationship token"."""
    trial = run_trial(spec, "C3018", Scenario(seed=5, play=6), answers=[0])
    assert "modifier set: gold off each relationship +20 for P1 until the generation ends" in trial.changes
    assert "P1's gold off each relationship: 0 -> 20" in trial.changes  # what the modifier makes it worth
    trial = run_trial(spec, "C1015", Scenario(seed=5, play=6), run="place my relationship_token on politician\n"
                      "set ender to me\nuntil generation_end: investment_cost * 50% for opponents\n"
                      "announce generation_end")
    assert "The Politician's track, space 1: + P1's relationship token" in trial.changes
    assert "P1's tokens on the mat: - P1's relationship token" in trial.changes
    assert "the player who ended the generation: (not set) -> P1" in trial.changes
    # set and cleared again within the effect: no net change, so not listed
    assert not any(line.startswith("modifier") for line in trial.changes), trial.changes
    trial = run_trial(spec, "C1015", Scenario(seed=5, play=6), run="until generation_end: may_select of ga_income = no")
    assert "Generate Heirloom Income: may be triggered (for P1): yes -> no" in trial.changes, trial.changes


def test_a_piece_s_player_slot_reads_as_a_player_not_as_a_piece() -> None:
    """A per-copy value slot of player type (a place's `held_by`) changed by an effect read
    "-1 -> Ash" (the player's number taken for a piece): it reads "nobody -> P1"."""
    places = Path(__file__).parents[1] / "interpreter" / "fixtures" / "places"
    spec = load_ruleset("places", places).spec
    trial = run_trial(spec, "hut_h", Scenario(), run="set spot_b's held_by to me")
    assert trial.changes == ["Birch's held by: nobody -> P1"], trial.changes


def test_copies_of_one_card_read_apart_and_what_one_holds_is_listed() -> None:
    """Three copies of one crate shared the zone name "on Crate": what was placed on one
    vanished from the changes (the dictionary kept the last), and its counters read
    `box_crate#2`. Each copy reads "Crate #k"."""
    holders = Path(__file__).parents[1] / "interpreter" / "fixtures" / "holders"
    spec = load_ruleset("holders", holders).spec
    before = "for each C in (crates in my hand):\n    move C to my table\nfor each C in (crates in deck):\n" \
             "    move C to my table\n"
    trial = run_trial(spec, "spring", Scenario(players=2, seed=1, before=before),
                      run="choose a crate in my table as C\nraise C's charge by 2\nplace my chip on C", answers=[1])
    offered = trial.asked[0][2]  # the copies, each holding its own, are told apart where they are offered too
    assert all(label.startswith("Crate #") for label in offered) and len(set(offered)) == len(offered), offered
    chosen = offered[1]
    assert f"{chosen}'s charge: 0 -> 2" in trial.changes, trial.changes
    assert f"on {chosen}: + P1's Chip" in trial.changes, trial.changes


def test_the_log_an_item_writes_is_shown() -> None:
    places = Path(__file__).parents[1] / "interpreter" / "fixtures" / "places"
    spec = load_ruleset("places", places).spec
    trial = run_trial(spec, "hut_h", Scenario(), run='log "{distance from spot_a to spot_d by path} steps"')
    assert trial.log == ["3 steps"] and trial.changes == []


def test_a_zone_in_a_log_reads_as_the_zone_never_as_the_piece_of_its_number() -> None:
    """A user's trial: `log "t={my tableau}"` printed "t=Gold" in the Legacy card game (the
    zone's number read as the piece of that number), with the tableau holding Protect."""
    spec = load_ruleset("legacy").spec
    trial = run_trial(spec, "protect", Scenario(), run='log "t={my tableau}; d={legacy_deck}; p={50%}; n={[1, 2]}"')
    assert trial.log == ["t=P1's tableau; d=the legacy deck; p=50%; n=1, 2"], trial.log  # not "Wild", "Gold, Gold"


def test_an_action_run_by_its_name_that_offers_nothing_says_so() -> None:
    """A user's trial: `try protect --run play_special` printed "nothing changed" (exit 0):
    the action was never offered. It says so; an action offered runs as before."""
    spec = load_ruleset("legacy").spec
    with pytest.raises(TrialError, match="the action `play_special` offers nothing to P1 here"):
        run_trial(spec, "protect", Scenario(play=4), run="play_special")
    trial = run_trial(spec, "protect", Scenario(play=4), run="build", answers=[0])
    assert trial.changes and trial.asked
    with pytest.raises(TrialError, match="`play_specail` is no action of .*did you mean `play_special`") as caught:
        run_trial(spec, "protect", Scenario(play=4), run="play_specail")  # was a syntax error's hint, no name
    assert caught.value.usage


def test_an_error_in_the_items_own_effect_names_its_file_and_line(tmp_path: Path) -> None:
    """The item's own statements ran as text printed again ("in effect tried as P1", no
    file); they run as written, so the error names the card's file, line and column."""
    import shutil

    root = tmp_path / "numbers"
    shutil.copytree(Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "numbers", root)
    cards = root / "content" / "numbers" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + "  - id: squarer\n    kind: card\n    name: Squarer\n"
                     "    attributes: {worth: 1}\n    effect: |\n      set pile to 2\n      repeat 40 times:\n"
                     "          set pile to pile * pile\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["try", "squarer", "--ruleset", str(root)])
    assert result.exit_code == 1, result.output
    assert "numbers/cards.yaml:12:11: in card `squarer` (Squarer): a number past the engine's limit" in result.output


def test_a_trial_stops_at_its_deadline_located() -> None:
    """The rules of a trial run within TRIAL_SECONDS (here 1): an item whose effect runs
    for minutes within the schema's largest step budget is stopped there, at its
    statement, and said as an internal error, nothing half-tried."""
    import time

    from legacies.pipeline.ruleset import load_ruleset

    work = load_ruleset("work", Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "work")
    assert work.spec is not None
    work.spec.limits.step_budget = 20_000_000  # a folder's ruleset: this load's own spec
    started = time.monotonic()
    with pytest.raises(TrialError) as caught:
        run_trial(work.spec, "mirror", Scenario(), run="repeat 10000 times:\n    repeat 100 times:\n        shuffle bag",
                  seconds=1)
    assert time.monotonic() - started < 20
    message = str(caught.value)
    assert "stopped on an internal error: in effect tried as P1: stopped at `legacies try`'s deadline of 1 s" in message


def test_run_an_action_by_its_name(spec) -> None:  # type: ignore[no-untyped-def]
    """Issue 34 §4: `--run ACTION` performs the ruleset's action as a menu would offer it
    (its choice of target first), not a name the effect language cannot run alone."""
    trial = run_trial(spec, "C1003", Scenario(seed=3, play=6, counters={1: {"gold": 50}}), run="play_card",
                      answers=[0, 0, 0])
    first = trial.asked[0]
    assert first[0] == "P1" and all(option.startswith("Play ") for option in first[2])
    assert f"P1's hand: - {first[3].removeprefix('Play ')}" in trial.changes
    # a label written with its article reads without it after a possessive (issue 34 §4)
    assert any(c.startswith("P1's player card being played: ") for c in trial.changes), trial.changes
    assert not [c for c in trial.changes if "'s the " in c or "'s a " in c]


def test_a_quantity_labelled_with_its_article_reads_after_a_possessive(spec) -> None:  # type: ignore[no-untyped-def]
    trial = run_trial(spec, "C1003", Scenario(seed=3, play=6),
                      run="until generation_end: hostile_surcharge = 0 for me")
    assert "P1's extra fame each relationship with a hostile character costs: 2 -> 0" in trial.changes, trial.changes


def test_a_choice_with_nothing_to_choose_says_why_the_rest_did_not_happen() -> None:
    """A designer's trial: `choose a card in my tableau` with an empty tableau stopped the
    effect in silence ("nothing changed", the `gain` after it not made, nothing said). The
    log says the question had no option and the rest of the effect does not happen; so does
    `pick at random` from nothing, and the command shows a source of several lines by its
    first."""
    run = "choose a card in my tableau as X\ngain 1 points"
    result = CliRunner().invoke(app, ["try", "swap", "-r", "legacy", "--run", run])
    assert result.exit_code == 0, result.output
    assert "P1 [choose a card in your tableau]: nothing to choose; the rest of the effect does not happen" \
        in result.output and "nothing changed" in result.output
    assert "played by P1: choose a card in my tableau as X …" in result.output.splitlines()[0]
    picked = CliRunner().invoke(app, ["try", "swap", "-r", "legacy", "--run",
                                      "pick at random one of (cards in my tableau) as X\ngain 1 points"])
    assert "[pick at random one of (cards in my tableau) as X]: nothing to pick from; the rest of the effect " \
        "does not happen" in picked.output
    # a question whose filter left nothing says what there was none of: its prompt leaves the filter out
    filtered = CliRunner().invoke(app, ["try", "swap", "-r", "legacy", "--run",
                                        "choose a card in my hand where count of its cost > 90 as X\ngain 1 points"])
    assert "P1 [choose a card in your legacy hand]: there are no cards in your legacy hand where the number of " \
        "its cost is more than 90; the rest of the effect does not happen" in filtered.output, filtered.output
    numbered = CliRunner().invoke(app, ["try", "swap", "-r", "legacy", "--run",
                                        "choose a number from 1 to 3 where it > 5 as N\ngain N points"])
    assert "P1 [choose a number: 1 to 3 where it is more than 5]: there is no such number; the rest of the " \
        "effect does not happen" in numbered.output, numbered.output
    paid = CliRunner().invoke(app, ["try", "swap", "-r", "legacy", "--run", "gain 1 points"])
    assert "nothing to" not in paid.output and "P1's points: 0 -> 1" in paid.output


def test_a_run_source_that_does_not_check_is_named_not_the_item() -> None:
    """A user's trial: a mistake in `--run` was said as "`bank_card` does not check", though
    the card was fine."""
    result = CliRunner().invoke(app, ["try", "swap", "-r", "legacy", "--run", "choose a player where its gol > 2 as Q"])
    assert result.exit_code == 2  # a bad effect given: a usage error, as cli.md says (it was 1)
    assert "the source to run (`--run`, or `run:` in a scenario test) does not check" in result.output
    assert "`swap` does not check" not in result.output


def test_an_item_with_nothing_to_try_on_its_own_is_a_usage_error() -> None:
    """A user's trial: `try S61 --play 6` (a successor that acts through triggers) said what
    to give, and exited 1, as if the rules had refused it; cli.md says 2."""
    result = CliRunner().invoke(app, ["try", "S60", "-r", "legacies", "--play", "6"])
    assert result.exit_code == 2, result.output
    assert "acts through triggers" in result.output
