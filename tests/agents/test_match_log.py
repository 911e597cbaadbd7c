"""The match log (agents/match.py): each turn under its own header, a turn of a player the
rules run (who is asked nothing) included, and the setup's decisions under `— setup —`
(issue 21: the log opened with "turn 0: Rising Star" and the Rising Star's turns sat
under the previous player's header)."""

from __future__ import annotations

from pathlib import Path

from legacies.agents.match import play_match
from legacies.pipeline.ruleset import load_ruleset

MENUS = Path(__file__).resolve().parent / "fixtures" / "menus"


def heads_of(log: list[str]) -> list[tuple[str, str]]:
    """Each line of the rules' own (`  · ...`) with the header it sits under."""
    out, head = [], ""
    for line in log:
        if line.startswith("— "):
            head = line
        elif line.startswith("  · "):
            out.append((head, line))
    return out


def test_every_turn_has_its_header_a_turn_the_rules_play_included() -> None:
    spec = load_ruleset("menus", root=MENUS).spec
    result = play_match(spec, ["random"] * 3, seed=2, options={"with_robot": True})
    log = result.log
    assert log[:2] == ["— setup —", "  · a robot joins the table"]  # the setup's lines and choices: not a turn
    assert [line for line in log if line.startswith("— turn")] == [
        f"— turn {n}: P{(n - 1) % 3 + 1} —" for n in range(1, 7)]
    robot = [head for head, line in heads_of(log) if line == "  · P3 waves"]
    assert robot == ["— turn 3: P3 —", "— turn 6: P3 —"]  # P3 decides nothing, yet its turns are headed
    for head, line in heads_of(log):
        if line.endswith(" waves"):
            assert head.endswith(f"{line.split()[1]} —")  # every wave under its player's turn


def test_a_hidden_answer_the_rules_took_keeps_its_whole_question() -> None:
    """A user's trial: a decision the rules took whose answer is hidden from the table read
    `P2 [choose 2: (a hidden card) (the only choice)`: the line was cut at the first ": ",
    which was inside the question. Its parts are kept now (interpreter/decisions.py Taken)."""
    class First:
        name = "first"

        def choose(self, state: object) -> int:
            return 0

    spec = load_ruleset("legacy").spec
    assert spec is not None
    lines: list[str] = []
    play_match(spec, ["human", "random", "random"], 1, human=lambda seat: First(), on_event=lines.append)
    hidden = [line for line in lines if line.endswith(": (a hidden card) (the only choice)")]
    assert hidden, "no hidden answer taken by the rules: the test checks nothing"
    for line in hidden:
        assert line.count("[") == line.count("]") == 1 and "]: (a hidden card)" in line, line
    assert any("[choose 2: cards in any player's tableau (2)]" in line for line in hidden)
