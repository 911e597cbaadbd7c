"""The `legacies` command as a user meets it: exit codes, output formats, determinism."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from legacies.cli.main import app

runner = CliRunner()
SHIPPED = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_validate_shipped_content_is_clean() -> None:
    code, out = run("validate")
    assert code == 0, out
    assert "no problems" in out


def test_validate_unknown_ruleset_is_a_usage_error() -> None:
    code, out = run("validate", "--ruleset", "nope")
    assert code == 2
    assert "unknown ruleset" in out


def test_validate_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    code, out = run("validate", str(tmp_path / "missing.yaml"))
    assert code == 2
    assert "no such file" in out


def _broken_copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for sub in ("rules/legacy", "content/legacy"):
        (root / sub).mkdir(parents=True)
        for f in (SHIPPED / sub).glob("*.yaml"):
            (root / sub / f.name).write_text(f.read_text())
    cards = root / "content/legacy/cards.yaml"
    text = cards.read_text()
    text = text.replace("move taken to my tableau", "move taken to my tablaeu")  # unknown name
    text = text.replace("copies: 16, attributes: {resource: gold}", "copies: 16, attributes: {resource: gould}")
    cards.write_text(text)
    return root


def test_validate_takes_a_ruleset_folder_as_ruleset_or_as_path(tmp_path: Path) -> None:
    root = _broken_copy(tmp_path)
    as_path = run("validate", str(root), "--format", "json")
    as_ruleset = run("validate", "--ruleset", str(root), "--format", "json")
    assert as_path[0] == as_ruleset[0] == 1 and json.loads(as_path[1]) == json.loads(as_ruleset[1])
    assert len(json.loads(as_ruleset[1])) == 2


def test_validate_reports_every_problem_with_position(tmp_path: Path) -> None:
    root = _broken_copy(tmp_path)
    code, out = run("validate", str(root))
    assert code == 1
    assert "E203" in out and "did you mean `tableau`?" in out  # did-you-mean on the unknown zone
    assert "C004" in out and "did you mean `gold`?" in out
    assert "^" in out  # a caret under the source line
    assert "2 errors" in out


def test_validate_json_format(tmp_path: Path) -> None:
    root = _broken_copy(tmp_path)
    code, out = run("validate", str(root), "--format", "json")
    assert code == 1
    items = json.loads(out)
    assert {tuple(sorted(i)) for i in items} == {("code", "column", "end_column", "end_line", "file", "hint", "line",
                                                  "message", "severity")}
    codes = sorted(i["code"] for i in items)
    assert codes == ["C004", "E203"]
    e203 = next(i for i in items if i["code"] == "E203")
    assert e203["file"].endswith("content/legacy/cards.yaml")
    line = (root / "content/legacy/cards.yaml").read_text().splitlines()[e203["line"] - 1]
    # the span is the misspelt word, start to end
    assert e203["end_line"] == e203["line"] and line[e203["column"] - 1:e203["end_column"] - 1] == "tablaeu"
    assert e203["hint"] and "tableau" in e203["hint"]


def test_validate_github_format(tmp_path: Path) -> None:
    root = _broken_copy(tmp_path)
    code, out = run("validate", str(root), "--format", "github")
    assert code == 1
    lines = [ln for ln in out.splitlines() if ln.startswith("::error ")]
    assert len(lines) == 2
    assert all("file=" in ln and ",line=" in ln and ",col=" in ln for ln in lines)


def test_validate_single_content_file_against_installed_ruleset(tmp_path: Path) -> None:
    f = tmp_path / "expansion.yaml"
    f.write_text("ruleset: legacy\nitems:\n  - id: fete\n    kind: legacy_card\n    name: Fete\n"
                 "    attributes: {type: special}\n    effect: |\n      gain 2 pionts\n")
    code, out = run("validate", str(f))
    assert code == 1
    assert "E201" in out and "pionts" in out and "did you mean `points`?" in out


def test_play_json_is_deterministic() -> None:
    args = ("play", "--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seat", "random",
            "--seed", "7", "--json")
    code1, out1 = run(*args)
    code2, out2 = run(*args)
    assert code1 == code2 == 0
    assert out1 == out2
    data = json.loads(out1)
    assert set(data) == {"ruleset", "seed", "players", "winner", "actions"}
    assert data["ruleset"] == "legacy" and data["seed"] == 7
    assert [p["seat"] for p in data["players"]] == ["random"] * 3
    assert data["winner"] in [p["name"] for p in data["players"]]
    best = max(p["score"] for p in data["players"])
    assert next(p for p in data["players"] if p["name"] == data["winner"])["score"] == best
    assert len(data["actions"]) > 10


def test_play_prints_a_readable_log_and_scores() -> None:
    code, out = run("play", "--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seed", "3")
    assert code == 0
    assert "— turn 1: P1 —" in out
    assert "final scores:" in out and "winner:" in out


def test_play_rejects_bad_seats_and_options() -> None:
    assert run("play", "--ruleset", "legacy", "--seat", "random", "--seat", "wizard")[0] == 2
    assert run("play", "--ruleset", "legacy", "--seat", "random")[0] == 2  # 1 player: not allowed
    assert run("play", "--ruleset", "nope", "--seat", "random", "--seat", "random")[0] == 2
    assert run("play", "--ruleset", "legacy", "--seat", "random", "--seat", "random", "--option", "bogus=1")[0] == 2


def test_play_with_options_and_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out = run("play", "--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seed", "1",
                    "--option", "rounds=2", "--option", "without_specials=yes", "--save", str(save), "-q")
    assert code == 0, out
    data = json.loads(save.read_text())
    assert data["options"] == {"rounds": 2, "without_specials": True}
    assert data["decisions"]


def test_explain_shows_text_source_and_ast() -> None:
    code, out = run("explain", "swap", "--ast")
    assert code == 0
    assert "Swap" in out and "card text:" in out and "effect source" in out and "AST:" in out
    code, out = run("explain", "riot")
    assert code == 0 and "subject, subject, brick" in out
    code, out = run("explain", "no_such_card")
    assert code == 2 and "no item" in out
    code, out = run("explain", "swap", "-r", "legacies")  # a user's trial: not said where it is
    assert code == 2 and "it is an item of `legacy` (--ruleset legacy)" in out


def test_rulesets_lists_the_installed_rulesets() -> None:
    code, out = run("rulesets")
    assert code == 0
    lines = out.splitlines()
    assert [line.split("\t")[0] for line in lines if not line.startswith("  ")] == ["gears-of-time", "leaders-legacy",
                                                                                    "legacies", "legacy"]
    tops = [line for line in lines if not line.startswith("  ")]  # an expansion or seat is listed under its ruleset
    assert tops[0].startswith("gears-of-time\tLegacy: Gears of Time\t2-4 players\t")
    assert tops[1].startswith("leaders-legacy\tLeader's Legacy\t3-6 players\t")
    assert tops[2].startswith("legacies\tLegacies\t3-6 players\t")


def test_hot_seat_human_plays_and_others_private_choices_stay_hidden() -> None:
    result = runner.invoke(app, ["play", "--ruleset", "legacy", "--seat", "human", "--seat", "random",
                                 "--seed", "2"], input="1\n" * 600)
    assert result.exit_code == 0, result.output[-500:]
    out = result.output
    assert "P1, choose an action:" in out and "  1. " in out  # the human was asked, options numbered
    assert "P2 [choose a card in your offer]: (a hidden card)" in out  # the bot's kept card is not shown
    assert "final scores:" in out


def test_human_refusing_a_number_is_asked_again() -> None:
    result = runner.invoke(app, ["play", "--ruleset", "legacy", "--seat", "human", "--seat", "random",
                                 "--seed", "2"], input="x\n99\n" + "1\n" * 600)
    assert result.exit_code == 0
    assert "'x' is not an option or a key" in result.output  # refused with a reason, asked again
    assert "there is no option 99: choose a number from 1 to" in result.output


def test_replay_shows_the_same_game_as_play(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, played = run("play", "--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seed", "5",
                       "--save", str(save))
    assert code == 0
    code, replayed = run("replay", str(save))
    assert code == 0
    log = played.split("\nfinal scores:")[0]
    numbered = replayed.split("\nfinal scores:")[0]
    assert re.sub(r"(?m)^  \d+\. ", "  ", numbered) == log  # decision by decision, the same log, numbered
    numbers = [int(n) for n in re.findall(r"(?m)^  (\d+)\. ", numbered)]
    assert numbers == list(range(1, len(numbers) + 1)) and numbers


def test_replay_to_a_decision_shows_the_board_there(tmp_path: Path) -> None:
    from legacies.cli.board import board_lines
    from legacies.interpreter.game import Game
    from legacies.pipeline.ruleset import load_ruleset

    save = tmp_path / "g.json"
    run("play", "--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seed", "5", "--save", str(save), "-q")
    code, out = run("replay", str(save), "--to", "9")
    assert code == 0
    log, board = out.split("\nthe board after decision 9, as ")
    assert re.findall(r"(?m)^  (\d+)\. ", log)[-1] == "9"
    assert log.rstrip().splitlines()[-1].startswith("the replay stops after decision 9 of ")
    # the board is the one the game had after those nine decisions, as the next player sees it
    state = Game(load_ruleset("legacy").spec, 2).new_state(5)
    for index in json.loads(save.read_text())["decisions"][:9]:
        state.apply(index)
    assert state.decision is not None
    viewer = state.decision.player
    assert board.startswith(f"P{viewer + 1} sees it:\n")
    assert board.split("sees it:\n", 1)[1].rstrip("\n").splitlines() == board_lines(state, viewer)
    code, out = run("replay", str(save), "--to", "9", "--as", "3")
    assert code == 2 and "the game has 2 players" in out


def test_replay_of_a_game_in_progress_stops_where_it_was_saved(tmp_path: Path) -> None:
    from legacies.interpreter.game import Game
    from legacies.pipeline.ruleset import load_ruleset

    state = Game(load_ruleset("legacy").spec, 2).new_state(3)
    for _ in range(5):
        state.apply(0)
    save = tmp_path / "partial.json"
    save.write_text(state.serialize())
    code, out = run("replay", str(save))
    assert code == 0
    assert out.rstrip().splitlines()[-1].startswith("the save ends here, before P")
    assert out.count(" [") == 5  # five decisions shown


def test_replay_refuses_a_tampered_save(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("play", "--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seed", "5", "--save", str(save), "-q")
    data = json.loads(save.read_text())
    data["decisions"][3] = 1 - data["decisions"][3] if data["decisions"][3] in (0, 1) else 0
    save.write_text(json.dumps(data))
    code, out = run("replay", str(save))
    assert code == 1 and "refused" in out


def test_content_lists_every_item_with_its_place() -> None:
    code, out = run("content", "--ruleset", "legacies", "--kind", "events")
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("E")]
    assert len(lines) == 45 and lines[0].startswith("E101") and "events.yaml:" in lines[0]
    code, out = run("content", "--ruleset", "legacies", "--json")
    rows = json.loads(out[: out.rindex("]") + 1])
    assert len([r for r in rows if r["kind"] == "player_card"]) == 150
    assert set(rows[0]) == {"ruleset", "id", "kind", "name", "century", "file", "line"}
    code, out = run("content", "--kind", "dragons")
    assert code == 2 and "no kind `dragons`" in out
    # the label `new` takes too (issue 34 §4), in any case
    code, out = run("content", "--ruleset", "legacies", "--kind", "Player Card", "--json")
    assert code == 0 and len(json.loads(out[: out.rindex("]") + 1])) == 150


def test_explain_takes_a_name_and_suggests_near_misses() -> None:
    code, out = run("explain", "spoils of war")
    assert code == 0 and out.startswith("Spoils of War  (C1003)")
    code, out = run("explain", "Spoils of Wars")
    assert code == 2 and "did you mean `C1003` (Spoils of War)?" in out


def test_explain_and_content_read_a_ruleset_folder(tmp_path: Path) -> None:
    import shutil

    for part in ("rules", "content"):
        shutil.copytree(SHIPPED / part / "legacies", tmp_path / part / "legacies")
    (tmp_path / "content" / "legacies" / "mine.yaml").write_text(
        "ruleset: legacies\nitems:\n  - id: C1901\n    kind: player_card\n    name: A Wager at White's\n"
        "    attributes:\n      century: 1\n      industry: tourism\n      opportunity: \"gain 2 fame\"\n",
        encoding="utf-8")
    code, out = run("explain", "C1901", "--path", str(tmp_path))
    assert code == 0 and "A Wager at White's" in out and "Gain 2 fame." in out
    code, out = run("content", "--path", str(tmp_path), "--kind", "player_card")
    assert code == 0 and "C1901" in out
    code, out = run("explain", "C1901", "--path", str(tmp_path / "content"))
    assert code == 2 and "holds no ruleset" in out


def test_play_with_no_ruleset_plays_legacies_with_four_bots() -> None:
    code, out = run("play", "--seed", "3", "--quiet")
    assert code == 0, out
    assert out.count("(random):") == 4 and "winner:" in out


def test_explain_numbers_effect_lists_and_shows_every_effects_source() -> None:
    """A character's five relationship benefits are numbered by space; effects written as
    attributes (an opportunity, the mat's actions) show their source with file:line."""
    code, out = run("explain", "politician")
    assert code == 0
    assert "relationship benefits 1: Gain 3 fame." in out and "relationship benefits 5:" in out
    assert "special action (aboveboard) source (content/legacies/characters.yaml:" in out
    code, out = run("explain", "C1003")
    assert code == 0 and "opportunity source (content/legacies/cards_i.yaml:" in out
    assert "  raise X's space by 1" in out
    code, out = run("explain", "C3003")
    assert code == 0 and "(none: this item has no effect of its own; the rules use the values above)" in out


def test_explain_in_a_ruleset_with_errors_says_so(tmp_path: Path) -> None:
    """An item of a ruleset whose content does not check: its card text cannot be made,
    and explain says why (it used to say the item had no effect)."""
    import shutil

    for part in ("rules", "content"):
        shutil.copytree(SHIPPED / part / "legacy", tmp_path / part / "legacy")
    cards = tmp_path / "content" / "legacy" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + "  - id: broken\n    kind: legacy_card\n    name: Broken\n"
                     "    attributes: {type: special, cost: [gold]}\n    effect: \"gian 2 gold\"\n", encoding="utf-8")
    code, out = run("explain", "broken", "--path", str(tmp_path))
    assert code == 0 and "(not shown: ruleset `legacy` has content errors; run `legacies validate" in out


def test_explain_in_an_expansion_with_errors_names_the_validate_that_finds_them(tmp_path: Path) -> None:
    """A user's trial: explain (and `test`) said `run legacies validate --ruleset legacies`,
    which found nothing wrong: the mistake was in the expansion laid over it."""
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(SHIPPED / "expansions" / "salons", broken)
    salons = broken / "content" / "legacies" / "salons.yaml"
    text = salons.read_text(encoding="utf-8")
    assert "          gain 1 fame" in text
    salons.write_text(text.replace("          gain 1 fame", "          gian 1 fame", 1), encoding="utf-8")
    code, out = run("explain", "SAL1", "-x", str(broken))
    advice = f"run `legacies validate -x {broken} --ruleset legacies` to see them"
    assert code == 0 and advice in out, out
    code, out = run("validate", "-x", str(broken), "--ruleset", "legacies")
    assert code == 1 and "`gian`" in out
    assert "no effect of its own" not in out


def test_version_and_item_counts_agree_with_content() -> None:
    code, out = run("--version")
    assert code == 0 and out.strip().startswith("legacies ")
    code, out = run("rulesets")
    assert code == 0
    counted = {line.split("\t")[0]: int(line.split("\t")[3].split()[0]) for line in out.splitlines()
               if "\t" in line and not line.startswith(" ")}
    code, listed = run("content", "--ruleset", "legacies", "--json")
    assert code == 0 and counted["legacies"] == len(json.loads(listed))


def test_play_replay_explain_and_content_take_a_ruleset_folder(tmp_path: Path) -> None:
    """`--ruleset PATH`: a folder on disk replaces the installed ruleset of its name; a
    save made with it replays with it, and is refused against the installed one (its
    content differs)."""
    import shutil

    for part in ("rules", "content"):
        shutil.copytree(SHIPPED / part / "legacy", tmp_path / part / "legacy")
    cards = tmp_path / "content" / "legacy" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: Riot\n", "name: Street Riot\n"),
                     encoding="utf-8")
    save = tmp_path / "g.json"
    code, out = run("play", "-r", str(tmp_path), "-s", "random", "-s", "random", "--seed", "4", "--quiet",
                    "--save", str(save))
    assert code == 0 and "winner" in out
    code, out = run("replay", "--verify", str(save), "-r", str(tmp_path))
    assert code == 0 and "verified" in out
    code, out = run("replay", "--verify", str(save))
    assert code == 1 and "are not the ones this game was played with" in out
    code, out = run("explain", "riot", "-r", str(tmp_path))
    assert code == 0 and out.startswith("Street Riot  (riot)")
    code, out = run("content", "-r", str(tmp_path), "--json")
    assert code == 0 and any(row["name"] == "Street Riot" for row in json.loads(out))
    code, out = run("play", "-r", str(tmp_path / "content"))
    assert code == 2 and "holds no ruleset" in out


def test_the_end_says_how_a_tie_was_broken() -> None:
    from legacies.agents.match import play_match
    from legacies.cli.scoring import tie_break_note
    from legacies.pipeline.ruleset import load_ruleset

    spec = load_ruleset("legacies").spec
    state = play_match(spec, ["random"] * 3, seed=1).state
    assert state is not None and state.is_terminal()
    lay, st = state.game.layout, state.st
    fame, foundation = lay.player_counter["fame"], lay.player_counter["foundation"]
    st.counters[fame:fame + 3] = [30, 30, 10]
    st.counters[foundation:foundation + 3] = [12, 40, 99]
    assert state.winner() == 1
    assert tie_break_note(state) == "tie on the score broken by your Foundation: 40 against 12"
    st.counters[foundation:foundation + 3] = [40, 40, 99]
    assert tie_break_note(state) == ("tie on the score (and every tie-break) broken by turn order: "
                                     "the earlier player wins")
    st.counters[fame:fame + 3] = [31, 30, 10]
    assert tie_break_note(state) is None


def test_seats_can_name_their_players() -> None:
    result = runner.invoke(app, ["play", "-r", "legacy", "-s", "random:Ann", "-s", "greedy:Bob", "--seed", "3", "-q"])
    assert result.exit_code == 0 and "Ann (random)" in result.output and "Bob (greedy)" in result.output
    twice = runner.invoke(app, ["play", "-r", "legacy", "-s", "random:Ann", "-s", "greedy:Ann"])
    assert twice.exit_code == 2 and "two players are called Ann" in twice.output


def test_try_run_with_a_mistake_shows_the_caret_and_the_hint() -> None:
    """`try --run SOURCE` with a mistake shows it as validate does: the source line, a
    caret under the mistake and the hint (it printed the headline alone)."""
    code, out = run("try", "C1005", "-r", "legacies", "--run", "gain 2 gold whre x")
    assert code != 0
    assert "E100" in out and "gain 2 gold whre x" in out and "^~~~" in out and "did you mean `where`?" in out


def test_soak_given_an_expansion_folder_says_what_plays_it(tmp_path: Path) -> None:
    """A user's trial: `soak -x FOLDER` said "unknown expansion", where every other command
    takes a folder. Soak plays installed expansions only; it says so, and what plays a folder."""
    folder = tmp_path / "mine"
    folder.mkdir()
    code, out = run("soak", "-x", str(folder), "-n", "1")
    assert code == 2 and "soak plays installed expansions only, by name" in out
    assert f"`legacies simulate -x {folder}` plays it" in out
