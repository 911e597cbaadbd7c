"""Expansions that add words (issue 16): an expansion folder declares itself in
expansion.yaml and may add everything a ruleset declares; its actions join the base's
menus, its rules answer the base's events, and it replaces a base file, item or
declaration only by saying `replaces: true`. Nothing it holds is dropped in silence.

The base is tests/pipeline/fixtures/plaza (a menu, an event each turn, a quantity);
the expansion is tests/pipeline/fixtures/market-day."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.interpreter.errors import CorruptSave
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import ExpansionError, RulesetResult, load_ruleset
from legacies.pipeline.validate import validate

FIXTURES = Path(__file__).parent / "fixtures"
PLAZA = FIXTURES / "plaza"
MARKET = FIXTURES / "market-day"
runner = CliRunner()


def codes(result: RulesetResult) -> list[str]:
    return [d.code for d in result.diagnostics]


def errors(result: RulesetResult) -> list[str]:
    return [d.headline() for d in result.diagnostics if d.severity == "error"]


SALONS = Path(__file__).resolve().parents[2] / "expansions" / "salons"


def salons_with(folder: Path, card: str = "") -> Path:
    """A copy of the shipped `salons` expansion (over legacies) in `folder`, with one more
    player card whose attributes (after century, industry and resources) are `card`."""
    shutil.copytree(SALONS, folder)
    if card:
        (folder / "content" / "legacies" / "added.yaml").write_text(
            "format: 2\nruleset: legacies\nitems:\n  - id: L1\n    kind: player_card\n    name: Added\n"
            "    attributes:\n      century: 1\n      industry: military\n      resources: [iron]\n" + card,
            encoding="utf-8")
    return folder


def validated(folder: Path) -> tuple[int, list[dict[str, object]]]:
    """`legacies validate -x FOLDER --format json`: its exit code and its diagnostics."""
    said = runner.invoke(app, ["validate", "-x", str(folder), "--format", "json"])
    return said.exit_code, json.loads(said.stdout)


@pytest.fixture()
def market(tmp_path: Path) -> Path:
    """A copy of the expansion to change in a test."""
    copy = tmp_path / "market-day"
    shutil.copytree(MARKET, copy)
    return copy


def test_an_expansion_adds_words_and_plays_without_touching_a_base_file() -> None:
    laid = load_ruleset("plaza", PLAZA, [MARKET])
    assert laid.ok, errors(laid)
    spec = laid.spec
    assert spec is not None
    v = spec.vocab
    assert "favours" in v.counters and "stall" in v.kinds and "flags" in v.zones and "stall_claimed" in v.events
    assert "stall_price" in v.quantities and "bonus" in v.kinds["card"].attributes
    assert v.menus["turn_action"] == ("earn", "buy_point", "play_card", "claim_stall")  # the base's, then its own
    assert spec.expansions and spec.expansions[0][0] == "market-day"
    assert [e[1] for e in spec.display["players"]] == ["points", "coins", "favours"]
    state = Game(spec, 2).new_state(1)
    assert "Claim the Fish Stall" in state.decision.labels()
    lay = state.game.layout
    favours = lay.player_counter["favours"]
    assert state.st.counters[favours] == 1  # the rules trigger answered the base's turn_started
    state.apply_label("Claim the Fish Stall")
    assert state.st.counters[lay.player_counter["points"]] == 2  # the stall's wares
    assert state.st.counters[lay.player_counter["coins"]] == 1  # 3 - stall_price 2
    assert state.st.counters[favours + 1] == 1 and state.decision.player == 1
    # the evaluation is the base's (the score, none declared) plus the expansion's term
    assert state.evaluate(0) == 2 + 1 * 2


def test_a_card_of_the_expansion_changes_its_quantity_and_answers_its_event() -> None:
    spec = load_ruleset("plaza", PLAZA, [MARKET]).spec
    assert spec is not None
    for seed in range(40):  # a game where P1 plays a Haggler first, then claims a stall
        state = Game(spec, 2).new_state(seed)
        if "Play Haggler" not in state.decision.labels():
            continue
        state.apply_label("Play Haggler")
        state.apply_label("Earn coins")
        lay = state.game.layout
        coins = lay.player_counter["coins"]
        before = state.st.counters[coins]
        favours = state.st.counters[lay.player_counter["favours"]]
        state.apply_label("Claim the Fruit Stall")
        assert state.st.counters[coins] == before - 1  # stall_price 2, less 1 for the Haggler's player
        assert state.st.counters[lay.player_counter["favours"]] == favours + 1  # when stall_claimed
        return
    pytest.fail("no seed deals a Haggler to the first player")


def test_an_expansion_simulates_and_its_items_are_reported(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-r", str(PLAZA), "-x", str(MARKET), "-n", "6", "-p", "2",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    mine = result.output.split("your items:\n")[1]
    assert "Haggler" in mine and "Fish Stall" in mine
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["games"] == 6


def test_simulate_compares_the_same_games_without_the_expansion(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-r", str(PLAZA), "-x", str(MARKET), "-n", "6", "-p", "2", "--compare",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    said = result.output.split("compared with Plaza alone (the same seeds and seats; alone -> with the expansions):\n")[1]
    assert said.startswith("  turns a game: mean 8.0, median 8, 8 to 8 -> mean 8.0, median 8, 8 to 8\n")
    assert "  random wins " in said
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    compared = report["without_expansions"]
    assert compared["games"] == {"with": 6, "without": 6} and compared["length"]["turns"]["without"]["mean"] == 8
    assert "Compared with Plaza alone" in (tmp_path / "report.html").read_text(encoding="utf-8")
    result = runner.invoke(app, ["simulate", "-r", str(PLAZA), "-n", "2", "--compare", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "give --expansion" in result.output


def test_a_name_the_base_declares_is_reused_only_with_replaces(market: Path) -> None:
    head = market / "expansion.yaml"
    text = head.read_text(encoding="utf-8")
    head.write_text(text.replace("quantities:\n", "quantities:\n  coin_income: {type: amount, default: 2}\n"),
                    encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    r008 = [d for d in laid.diagnostics if d.code == "R008"]
    assert len(r008) == 1 and "`coin_income` is already declared in" in r008[0].message and "ruleset.yaml" in \
        r008[0].message and r008[0].file.endswith("expansion.yaml") and r008[0].line > 1
    head.write_text(text.replace("quantities:\n", "quantities:\n  coin_income: {type: amount, default: 2, "
                                 "replaces: true}\n"), encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    assert laid.ok and laid.spec is not None and laid.spec.vocab.quantities["coin_income"].default == 2
    head.write_text(text.replace("quantities:\n", "quantities:\n  income: {type: amount, default: 2, "
                                 "replaces: true}\n"), encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    assert "R009" in codes(laid) and "replaces nothing" in " ".join(errors(laid))


@pytest.mark.parametrize("declared, other", [
    ("zones:\n  fame: {scope: player}\n", "`fame` already names one of the counters, declared in rules/legacies/"),
    ("counters:\n  industry: {scope: player}\n", "`industry` already names one of the kinds, declared in rules/legacies/"),
    ("counters:\n  law: {scope: player}\n", "`law` is already the id of an item of what this expansion is laid over"),
    ("kinds:\n  fame: {piece: token, plural: fames}\n", "`fame` already names one of the counters"),
])
def test_a_word_that_names_another_thing_of_the_base_is_one_error_in_the_expansion(
        tmp_path: Path, declared: str, other: str) -> None:
    """A user's trial: an expansion's zone `fame` (a counter of the base) took the base's
    word, and 84 errors filled the base's files (`gain 1 fame`: unknown counter), none in
    the expansion; a counter `industry` (a kind) said "already names one of the counters".
    Such a word is one error where the expansion declares it, naming what the base means
    by it, and the base is left as it was."""
    folder = salons_with(tmp_path / "salons")
    head = folder / "expansion.yaml"
    table = declared.split("\n")[0] + "\n"  # under the table salons already declares
    head.write_text(head.read_text(encoding="utf-8").replace(table, declared, 1), encoding="utf-8")
    code, found = validated(folder)
    assert code == 1
    assert [(d["code"], Path(str(d["file"])).name) for d in found] == [("R005", "expansion.yaml")], found
    assert str(found[0]["message"]).startswith(other) and "differently" in str(found[0]["hint"])


def test_items_actions_and_procedures_replace_only_when_they_say_so(market: Path) -> None:
    cards = market / "content" / "plaza" / "more.yaml"
    cards.write_text("format: 2\nruleset: plaza\nitems:\n  - {id: lamp, kind: card, name: Bright Lamp, "
                     "attributes: {worth: 3}}\n", encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    c001 = [d for d in laid.diagnostics if d.code == "C001"]
    assert len(c001) == 1 and "replaces: true" in (c001[0].hint or "")
    cards.write_text("format: 2\nruleset: plaza\nitems:\n  - {id: lamp, kind: card, name: Bright Lamp, "
                     "replaces: true, attributes: {worth: 3}}\n", encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    assert laid.ok and laid.build is not None
    assert list(laid.build.items)[0] == "lamp" and laid.build.items["lamp"][2].name == "Bright Lamp"  # its place
    rules = market / "rules" / "plaza" / "more.yaml"
    rules.write_text("format: 2\nactions:\n  earn:\n    label: Earn more\n    menus: [turn_action]\n"
                     "    do: gain 2 coins\n", encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    assert "R007" in codes(laid) and "replaces: true" in str([d.hint for d in laid.diagnostics])
    rules.write_text("format: 2\nactions:\n  earn:\n    label: Earn more\n    menus: [turn_action]\n"
                     "    replaces: true\n    do: gain 2 coins\n", encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    assert laid.ok and laid.spec is not None and laid.spec.actions["earn"].label == "Earn more"
    assert laid.spec.vocab.menus["turn_action"][0] == "earn"  # in the base's place in the menu


def test_an_expansion_removes_base_items(market: Path) -> None:
    head = market / "expansion.yaml"
    head.write_text(head.read_text(encoding="utf-8") + "removes: [fountain, nothing_here]\n", encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    c008 = [d for d in laid.diagnostics if d.code == "C008"]
    assert len(c008) == 1 and "`nothing_here`" in c008[0].message
    head.write_text(head.read_text(encoding="utf-8").replace(", nothing_here", ""), encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    assert laid.ok and laid.build is not None and "fountain" not in laid.build.items


def test_a_file_at_a_base_files_place_and_files_nothing_reads_are_said(market: Path) -> None:
    (market / "content" / "plaza" / "cards.yaml").write_text(
        "format: 2\nruleset: plaza\nitems:\n  - {id: torch, kind: card, name: Torch, attributes: {worth: 1}}\n",
        encoding="utf-8")
    (market / "rules" / "plaza" / "ruleset.yaml").write_text("ruleset: plaza\n", encoding="utf-8")
    (market / "content" / "other").mkdir()
    (market / "content" / "other" / "x.yaml").write_text("a: 1\n", encoding="utf-8")
    (market / "notes.yaml").write_text("a: 1\n", encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    by_code = {d.code: d for d in laid.diagnostics}
    assert "X002" in by_code and "content/plaza/cards.yaml" in by_code["X002"].message
    assert "removing its 2 items (lamp, fountain)" in by_code["X002"].message
    assert "X001" in by_code and by_code["X001"].file.endswith("rules/plaza/ruleset.yaml")
    unread = sorted(Path(d.file).name for d in laid.diagnostics if d.code == "X003")
    assert unread == ["notes.yaml"] and all(d.severity == "warning" for d in laid.diagnostics if d.code == "X003")
    # a file for another ruleset is an error: the expansion extends one, and it is never read
    other = [d for d in laid.diagnostics if d.code == "X008"]
    assert [Path(d.file).name for d in other] == ["x.yaml"] and other[0].severity == "error"
    assert "it is for ruleset `other`, and this expansion is laid over `plaza`" in other[0].message
    (market / "content" / "other" / "x.yaml").unlink()
    cards = market / "content" / "plaza" / "cards.yaml"
    cards.write_text("replaces: true\n" + cards.read_text(encoding="utf-8"), encoding="utf-8")
    (market / "rules" / "plaza" / "ruleset.yaml").unlink()
    laid = load_ruleset("plaza", PLAZA, [market])
    assert laid.ok and laid.build is not None and "lamp" not in laid.build.items and "torch" in laid.build.items
    (market / "content" / "plaza" / "lone.yaml").write_text("replaces: true\nformat: 2\nruleset: plaza\nitems: []\n",
                                                             encoding="utf-8")
    assert "X007" in codes(load_ruleset("plaza", PLAZA, [market]))


def test_an_expansion_for_the_wrong_ruleset_fails_validate_where_it_says_so(tmp_path: Path) -> None:
    """A user's trial: an expansion whose expansion.yaml says `extends: legacy` over files
    of content/legacies/ passed validate (exit 0, two warnings) with none of its cards read;
    `extends: legacis` was a usage error with no place, no did-you-mean and no JSON. Both
    are errors in the files now (X008, X009), in every output format."""
    wrong = salons_with(tmp_path / "wrong")
    head = wrong / "expansion.yaml"
    text = head.read_text(encoding="utf-8")
    assert "\nextends: legacies\n" in text
    head.write_text(text.replace("\nextends: legacies\n", "\nextends: legacy\n"), encoding="utf-8")
    said = runner.invoke(app, ["validate", "-x", str(wrong), "--format", "json"])
    assert said.exit_code == 1, said.output
    x008 = [d for d in json.loads(said.stdout) if d["code"] == "X008"]
    assert x008 and all(d["severity"] == "error" and "`extends: legacy` in expansion.yaml" in d["message"]
                        for d in x008)
    head.write_text(text.replace("\nextends: legacies\n", "\nextends: legacis\n"), encoding="utf-8")
    line = text.split("\n").index("extends: legacies") + 1
    for form in ("json", "text", "github"):
        said = runner.invoke(app, ["validate", "-x", str(wrong), "--format", form])
        assert said.exit_code == 1, said.output
        if form == "json":
            (found,) = json.loads(said.stdout)
            assert (found["code"], found["line"], found["column"], found["hint"]) == (
                "X009", line, 10, "did you mean `legacies`?")
            assert found["file"].endswith("expansion.yaml")
        elif form == "text":
            assert "extends: legacis\n" in said.stdout and "^~~~~~~" in said.stdout
        else:
            assert f"line={line},col=10,title=X009::" in said.stdout


def test_a_yaml_file_is_read_whatever_the_case_of_its_suffix(market: Path) -> None:
    """A user's trial: `caps.YAML` in an expansion's content folder was neither read nor said
    to be unread, and its mistakes were never reported."""
    (market / "content" / "plaza" / "caps.YAML").write_text(
        "format: 2\nruleset: plaza\nitems:\n  - {id: torch, kind: no_such_kind, name: Torch}\n", encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    assert any(d.file.endswith("caps.YAML") and d.severity == "error" for d in laid.diagnostics), codes(laid)


def test_an_expansion_without_expansion_yaml_is_warned_of(tmp_path: Path) -> None:
    folder = tmp_path / "loose" / "content" / "plaza"
    folder.mkdir(parents=True)
    (folder / "x.yaml").write_text("format: 2\nruleset: plaza\nitems:\n  - {id: torch, kind: card, name: Torch, "
                                   "attributes: {worth: 1}}\n", encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [tmp_path / "loose"])
    assert laid.ok and [d.code for d in laid.diagnostics] == ["X004"]


def test_validate_folder_warns_of_a_missing_expansion_yaml_as_x_folder_does(tmp_path: Path) -> None:
    """Issue 34 §4: `validate FOLDER` (files laid over an installed ruleset) said nothing of
    the missing expansion.yaml that `validate -x FOLDER` warns of."""
    folder = tmp_path / "loose" / "content" / "legacy"
    folder.mkdir(parents=True)
    (folder / "x.yaml").write_text("format: 2\nruleset: legacy\nitems: []\n", encoding="utf-8")
    loose = str(tmp_path / "loose")
    by_folder = [(d.code, d.severity) for d in validate([loose]).diagnostics]
    by_x = [(d.code, d.severity) for d in validate([], None, (loose,)).diagnostics]
    assert by_folder == by_x == [("X004", "warning")]


def test_an_expansion_for_another_ruleset_or_out_of_order_is_refused(market: Path) -> None:
    head = market / "expansion.yaml"
    text = head.read_text(encoding="utf-8")
    head.write_text(text.replace("extends: plaza", "extends: legacy"), encoding="utf-8")
    with pytest.raises(ExpansionError, match="extends `legacy`, not `plaza`"):
        load_ruleset("plaza", PLAZA, [market])
    head.write_text(text + "requires: [lanterns]\n", encoding="utf-8")
    with pytest.raises(ExpansionError, match="requires `lanterns`"):
        load_ruleset("plaza", PLAZA, [market])
    lanterns = market.parent / "lanterns"
    (lanterns / "content" / "plaza").mkdir(parents=True)
    (lanterns / "expansion.yaml").write_text("expansion: lanterns\nextends: plaza\ntitle: Lanterns\n",
                                             encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market, lanterns])  # laid in the order they require
    assert laid.ok, errors(laid)
    assert [e.name for e in laid.expansions] == ["lanterns", "market-day"]


def test_menus_and_rules_triggers_are_checked(market: Path) -> None:
    rules = market / "rules" / "plaza" / "market.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("menus: [turn_action]", "menus: [turn_actoin]")
                     .replace("    when turn_started:\n        gain 1 favours for actor\n",
                              "    gain 1 favours\n"), encoding="utf-8")
    laid = load_ruleset("plaza", PLAZA, [market])
    by_code = {d.code: d for d in laid.diagnostics}
    assert "R001" in by_code and "unknown menu `turn_actoin`" in by_code["R001"].message
    assert "did you mean `turn_action`?" in (by_code["R001"].hint or "")
    assert "R010" in by_code


def test_validate_and_the_language_server_check_an_expansion_file_with_its_siblings(tmp_path: Path) -> None:
    """A file of an expansion uses an id its sibling defines: checked as a whole, no false E201."""
    from legacies.cli.lsp.check import check_document

    folder = tmp_path / "docks"
    (folder / "content" / "legacy").mkdir(parents=True)
    (folder / "expansion.yaml").write_text("expansion: docks\nextends: legacy\ntitle: Docks\n", encoding="utf-8")
    (folder / "content" / "legacy" / "a.yaml").write_text(
        "format: 2\nruleset: legacy\nitems:\n  - id: pier\n    kind: legacy_card\n    name: Pier\n"
        "    attributes: {type: legacy, builds: monument, cost: [brick]}\n", encoding="utf-8")
    b = folder / "content" / "legacy" / "b.yaml"
    b.write_text("format: 2\nruleset: legacy\nitems:\n  - id: crane\n    kind: legacy_card\n    name: Crane\n"
                 "    attributes: {type: special}\n    effect: |\n      discard top of (cards in my hand where it is "
                 "pier)\n", encoding="utf-8")
    result = validate([str(b)], None, ())
    assert result.ok and not result.diagnostics, [d.headline() for d in result.diagnostics]
    check = check_document(b, {b: b.read_text(encoding="utf-8")})
    assert check.ok and not check.diagnostics, [d.headline() for d in check.diagnostics]
    edited = b.read_text(encoding="utf-8").replace("is pier", "is peir")
    check = check_document(b, {b: edited})
    e201 = [d for d in check.diagnostics if d.code == "E201"]
    assert len(e201) == 1 and e201[0].file.endswith("b.yaml") and "did you mean `pier`?" in (e201[0].hint or "")


def test_saves_record_the_expansions_and_replay_refuses_without_them(tmp_path: Path) -> None:
    spec = load_ruleset("plaza", PLAZA, [MARKET]).spec
    bare = load_ruleset("plaza", PLAZA).spec
    assert spec is not None and bare is not None
    state = Game(spec, 2).new_state(5)
    for _ in range(3):
        state.apply(0)
    text = state.serialize()
    data = json.loads(text)
    assert data["expansions"] == [{"name": "market-day", "content": spec.expansions[0][1]}]
    assert GameState.deserialize(spec, text).fingerprint() == state.fingerprint()
    with pytest.raises(CorruptSave, match="played with the expansion `market-day`, and it is loaded with no "
                                          "expansion: give --expansion market-day"):
        GameState.deserialize(bare, text)
    data["expansions"][0]["content"] = "0" * 64
    with pytest.raises(CorruptSave, match="the expansion `market-day` changed"):
        GameState.deserialize(spec, json.dumps(data))


def test_the_installed_expansion_is_listed_and_found_by_name(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rulesets"])
    assert result.exit_code == 0 and "  + salons\tSalons\t(--expansion salons)\t+9 items" in result.output
    listed = result.output.splitlines()
    fame = listed.index("  + fame-and-fortune\tFame and Fortune\t(--expansion fame-and-fortune)\t+102 items")
    assert listed[fame - 1].startswith("leaders-legacy\t")  # under the ruleset it extends
    result = runner.invoke(app, ["validate", "-x", "salons"])
    assert result.exit_code == 0 and "no problems" in result.output, result.output
    result = runner.invoke(app, ["validate", "-x", "no-such-thing"])
    assert result.exit_code == 2 and "no expansion of that name is installed (installed: fame-and-fortune, salons)" in result.output
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "-x", "salons", "-s", "random", "-s", "random", "-s", "random",
                                 "--seed", "2", "--quiet", "--save", str(save)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", "--verify", str(save)])  # the save names it: laid again by name
    assert result.exit_code == 0 and "verified" in result.output, result.output


def test_an_effect_attribute_that_plays_itself_is_an_error(tmp_path: Path) -> None:
    """A user's trial: `play this's opportunity` in the card's opportunity passed validate,
    and the game stopped each time the card was played (2,000 effects one inside another)."""
    code, said = validated(salons_with(tmp_path / "echo", "      opportunity: |\n        gain 1 gold\n"
                                                          "        play this's opportunity\n"))
    assert code == 1, said
    (found,) = [d for d in said if d["severity"] == "error"]
    assert (found["code"], found["line"], found["column"]) == ("E224", 13, 9)
    assert "`play this's opportunity` inside the opportunity of the same item" in found["message"]


def _played(folder: Path, cards: list[tuple[str, str]]) -> Path:
    """The folder's added.yaml with more player cards: (id, opportunity)."""
    with open(folder / "content" / "legacies" / "added.yaml", "a", encoding="utf-8") as f:
        for cid, opportunity in cards:
            f.write(f"  - id: {cid}\n    kind: player_card\n    name: Card {cid}\n    attributes:\n"
                    "      century: 1\n      industry: military\n      resources: [iron]\n      opportunity: |\n"
                    + "".join(f"        {line}\n" for line in opportunity.splitlines()))
    return folder


def test_effects_that_play_each_other_are_e224_naming_the_loop(tmp_path: Path) -> None:
    """A user's trial: two cards whose opportunities played each other passed validate (one
    that played itself was E224), and the game stopped on them at 2,000 effects one inside
    another. A loop through any number of items is one E224, at the first card's `play`;
    a `play` inside an `if` may stop, and is left to the run's nesting limit."""
    folder = _played(salons_with(tmp_path / "echo", "      opportunity: |\n        gain 1 gold\n"
                                                    "        play L2's opportunity\n"),
                     [("L2", "gain 1 fame\nplay L3's opportunity"), ("L3", "play L1's opportunity"),
                      ("L4", "if my gold > 3:\n    play L5's opportunity"), ("L5", "play L4's opportunity")])
    code, said = validated(folder)
    assert code == 1, said
    (found,) = [d for d in said if d["severity"] == "error"]
    assert (found["code"], Path(str(found["file"])).name, found["line"], found["column"]) == ("E224", "added.yaml", 13, 9)
    assert "`L1` (Added)'s opportunity, which plays `L2` (Card L2)'s opportunity, which plays `L3` (Card L3)'s " \
           "opportunity, which plays `L1` (Added)'s opportunity" in str(found["message"])


def test_an_effect_no_rule_plays_is_w309_pointing_at_the_effect_the_rules_run(tmp_path: Path) -> None:
    """A user's trial: a player card's `effect: gain 5 fame` validated, explained and tried
    well, and no game ever ran it (Legacies plays a player card's `opportunity`). Only
    statements are said: a trigger on the card is a declaration (E219's)."""
    code, said = validated(salons_with(tmp_path / "stray", "      opportunity: |\n        gain 1 gold\n"
                                                          "    effect: |\n        gain 5 fame\n"))
    assert code == 0, said
    (found,) = [d for d in said if d["code"] == "W309"]
    assert (Path(str(found["file"])).name, found["line"], found["severity"]) == ("added.yaml", 13, "warning")
    assert "no rule or effect plays a player card" in str(found["message"])
    assert found["hint"] == "write it in the effect the rules run: `opportunity`"
    code, said = validated(salons_with(tmp_path / "heard", "      opportunity: |\n        gain 1 gold\n"
                                                          "    effect: |\n        when card_played:\n"
                                                          "            gain 1 fame\n"))
    assert "W309" not in [d["code"] for d in said]


def test_a_loop_past_the_budget_in_an_expansion_is_not_told_to_raise_the_budget(tmp_path: Path) -> None:
    """A user's trial: W305 in an expansion's card said to raise `limits.step_budget` in
    ruleset.yaml, which an expansion cannot (`limits:` there is S003)."""
    code, said = validated(salons_with(tmp_path / "long", "      opportunity: |\n        repeat 1000000000 times:\n"
                                                         "            gain 1 fame\n"))
    (found,) = [d for d in said if d["code"] == "W305"]
    assert found["hint"] == "repeat fewer times" and code == 0


def test_a_name_a_triggers_event_does_not_give_is_told_what_it_gives(tmp_path: Path) -> None:
    """A user's trial: `when card_played where target is law:` was offered `taught` (a
    word of the ruleset), and under a misspelt event `actor` was unknown with no word on
    why. In a trigger, the hint says what its event gives, and what follows from an
    unknown event says so."""
    folder = salons_with(tmp_path / "heard", "    effect: |\n        when card_played where target is law:\n"
                                             "            gain 1 fame\n")
    with open(folder / "content" / "legacies" / "added.yaml", "a", encoding="utf-8") as f:
        f.write("  - id: L2\n    kind: player_card\n    name: Misheard\n    attributes:\n      century: 1\n"
                "      industry: military\n      resources: [iron]\n    effect: |\n"
                "        when card_playd where acter is me:\n            gain 1 fame\n"
                "  - id: L3\n    kind: player_card\n    name: Misspelt\n    attributes:\n      century: 1\n"
                "      industry: military\n      resources: [iron]\n    effect: |\n"
                "        when card_played where acter is me:\n            gain 1 fame\n")
    _, said = validated(folder)
    hints = {str(d["message"]): d["hint"] for d in said if d["code"] == "E201"}
    assert hints["unknown name `target`"] == "the event `card_played` gives `card`, `actor`"
    found = [d["hint"] for d in said if d["code"] == "E201" and d["message"] == "unknown name `acter`"]
    assert sorted(found) == ["did you mean `actor`? (the event `card_played` gives `card`, `actor`)",
                             "this follows from the unknown event `card_playd`: its parameters are unknown too"]


def legacy_cards_copied(tmp_path: Path) -> tuple[Path, str]:
    """The Legacy card game's rules and content copied under `tmp_path`: its cards file and text."""
    repo = Path(__file__).resolve().parents[2]
    for part in ("rules", "content"):
        shutil.copytree(repo / part / "legacy", tmp_path / part / "legacy")
    cards = tmp_path / "content" / "legacy" / "cards.yaml"
    return cards, cards.read_text(encoding="utf-8")


def test_an_item_the_schema_refuses_leaves_the_rest_of_its_file_checked(tmp_path: Path) -> None:
    """A user's trial: `copies: -3` on one card refused the whole file, so a misspelt name in
    another card was never reported, and the rules that name the file's cards said they
    did not exist. Now the card alone is left out (where nothing can stand in for what the
    schema refused: a `replaces:` that is not true or false); what names it says so."""
    cards, text = legacy_cards_copied(tmp_path)
    protect = "  - id: protect\n    kind: legacy_card\n    name: Protect\n    copies: 3\n"
    assert protect in text and "as given\n" in text
    text = text.replace(protect, protect + "    replaces: maybe\n").replace("as given\n", "as givn\n", 1)
    cards.write_text(text, encoding="utf-8")
    said = CliRunner().invoke(app, ["validate", str(tmp_path), "--format", "json"])
    assert said.exit_code == 1, said.output
    found = {(Path(d["file"]).name, d["code"]): d for d in json.loads(said.stdout)}
    assert found[("cards.yaml", "S004")]["message"].endswith("replaces: expected true or false, got the text 'maybe'")
    assert found[("cards.yaml", "E201")]["message"] == "unknown name `given`"  # checked: the file went on
    named = found[("procedures.yaml", "E201")]
    assert named["message"] == "unknown name `protect`"
    # where its error is (a user's trial: "(above)" pointed up at a file printed below)
    assert named["hint"].startswith("the item `protect` was refused (its error is in ") and \
        named["hint"].endswith("content/legacy/cards.yaml): this follows from that")
    assert "follows from" not in (found[("cards.yaml", "E201")]["hint"] or "")  # only what names it


def test_an_item_without_a_name_still_has_its_effect_checked(tmp_path: Path) -> None:
    """A user's trial: a card with no `name:` (or a flavor that is not text, `copies: two`, an
    unknown key) was left out whole, so a misspelt counter in its effect was found only once
    the rest was mended: four rounds of validate for one file. What can be stood in for is
    (the name by the id), so every mistake is said at once, and what names the card finds it."""
    cards, text = legacy_cards_copied(tmp_path)
    protect = "  - id: protect\n    kind: legacy_card\n    name: Protect\n"
    assert protect in text
    text = text.replace(protect, "  - id: protect\n    kind: legacy_card\n    flavor: 7\n")
    text += ("  - id: nameless\n    kind: legacy_card\n    name: [not, text]\n    effect: |\n"
             "      gain 1 pionts\n"
             "  - id: colourful\n    kind: legacy_card\n    nmae: Colourful\n    copies: two\n    colour: red\n"
             "    effect: |\n      gain 2 pionts\n")
    cards.write_text(text, encoding="utf-8")
    said = CliRunner().invoke(app, ["validate", str(tmp_path), "--format", "json"])
    assert said.exit_code == 1, said.output
    found = [(Path(d["file"]).name, d["code"], d["message"]) for d in json.loads(said.stdout)]
    assert any(code == "S002" and message.endswith("missing required property 'name'") for _, code, message in found)
    assert any(code == "S004" and ".flavor:" in message for _, code, message in found)
    assert any(code == "S004" and ".name:" in message for _, code, message in found)
    # the effects were checked, a misspelt name, `copies: two` and an unknown key mended too
    assert [code for _, code, message in found if "`pionts`" in message] == ["E201", "E201"], found
    assert any(code == "S003" and "'nmae', where the required 'name' is missing" in message
               for _, code, message in found), found
    assert any(code == "S003" and "'colour'" in message for _, code, message in found), found
    assert not any(file == "procedures.yaml" for file, _, _ in found), found  # `protect` is still there


def test_every_bad_entry_of_a_table_is_said_where_it_is(tmp_path: Path) -> None:
    """A user's trial: `relationships: {genral: 3, nobody_at_all: 3}` reported `genral` alone,
    its caret under the whole table. Each entry is said, at its key or its value."""
    code, said = validated(salons_with(tmp_path / "rel", "      relationships: {genral: 3, nobody_at_all: 3, "
                                                         "politician: lots}\n      opportunity: gain 1 fame\n"))
    assert code == 1, said
    found = [(d["line"], d["column"], d["code"], d["message"]) for d in said]
    assert found == [(11, 23, "C004", "unknown content id `genral`"),
                     (11, 34, "C004", "unknown content id `nobody_at_all`"),
                     (11, 64, "C004", "expected a number or an era value like `20/50/100`, found 'lots'")]


def test_an_empty_file_is_not_said_to_cause_the_other_mistakes(tmp_path: Path) -> None:
    """A user's trial: an empty content file beside a misspelt `playres` added "a file of
    this ruleset could not be loaded: this may follow from that" to the misspelling. An
    empty file defines no name: nothing follows from it. A file that does not load does."""
    repo = Path(__file__).resolve().parents[2]
    for part in ("rules", "content"):
        shutil.copytree(repo / part / "legacy", tmp_path / part / "legacy")
    cards = tmp_path / "content" / "legacy" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("as given\n", "as givn\n", 1), encoding="utf-8")
    empty = tmp_path / "content" / "legacy" / "empty.yaml"
    empty.write_text("# to fill in\n\n", encoding="utf-8")

    def misspelt() -> dict:
        said = CliRunner().invoke(app, ["validate", str(tmp_path), "--format", "json"])
        assert said.exit_code == 1, said.output
        return next(d for d in json.loads(said.stdout) if d["code"] == "E201")

    assert "follow" not in (misspelt()["hint"] or "")
    empty.write_text("items: [\n", encoding="utf-8")  # a file that does not load: it may have defined the name
    assert "may follow from that" in (misspelt()["hint"] or "")


def test_a_field_written_under_attributes_and_a_hidden_character_in_an_id_are_said(tmp_path: Path) -> None:
    """A user's trial: `effect:` indented under `attributes:` read "a event has no attribute
    `effect`" with the kind's attributes for a hint; a zero-width space in an id, only the
    pattern it broke."""
    folder = salons_with(tmp_path / "fields", "      effect: |\n        gain 1 gold\n")
    (folder / "content" / "legacies" / "hidden.yaml").write_text(
        "format: 2\nruleset: legacies\nitems:\n  - id: \"L\u200b2\"\n    kind: player_card\n    name: Hidden\n"
        "    attributes:\n      century: 1\n      industry: military\n      resources: [iron]\n", encoding="utf-8")
    code, said = validated(folder)
    assert code == 1
    field = next(d for d in said if d["code"] == "C003")
    assert field["message"] == "a player_card has no attribute `effect`"
    assert "`effect` is a field of the item, not an attribute" in str(field["hint"])
    hidden = next(d for d in said if d["code"] == "S005")
    assert "character 2 is U+200B (ZERO WIDTH SPACE), which cannot be seen" in str(hidden["hint"])


def test_an_effect_written_without_its_bar_is_said_to_have_been_read_as_one_line(tmp_path: Path) -> None:
    code, said = validated(salons_with(tmp_path / "plain", "    effect:\n      gain 1 gold\n      lose 1 gold\n"))
    assert code == 1
    (found,) = [d for d in said if d["code"] == "E100"]
    assert "its lines were read as one" in str(found["hint"]) and "`effect: |`" in str(found["hint"])
