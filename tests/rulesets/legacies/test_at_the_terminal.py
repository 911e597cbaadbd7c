"""A whole game of Legacies as a person plays it (issue 21): in an 80x24 pseudo-terminal,
against two greedy bots, reading before committing: `?N` on a hand card, on each of an
event's outcomes and on a bid, `look` on a successor in play, paging the board, and
never a line wider than the screen."""

from __future__ import annotations

import re
import sys

import pytest
import tables

pexpect = pytest.importorskip("pexpect")

PROMPT = tables.PROMPT
MORE = re.compile(r"── more: Enter for the next page, q to stop ── ")
END = re.compile(r"winner: .*\r?\n")
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|[\x00-\x08\x0b-\x1f]")


def options(screen: str) -> list[str]:
    """The numbered options of the last question on the screen."""
    question = screen[screen.rfind("P1, "):]
    return re.findall(r"^\s+\d+\. (.+?)(?:  — .*)?$", question, re.M)


def choose(child: "pexpect.spawn", text: str) -> str:
    """Type a line; everything shown until the next question (pages read through)."""
    child.sendline(text)
    seen = ""
    while child.expect([PROMPT, MORE]) == 1:
        seen += child.before
        child.sendline("")
    return seen + child.before


def test_a_whole_game_read_before_each_commitment() -> None:
    child = pexpect.spawn(sys.executable, ["-c", "from legacies.cli.main import main; main()", "play",
                                           "--seat", "human", "--seat", "greedy", "--seat", "greedy", "--seed", "3",
                                           "--fast", "--plain"],
                          encoding="utf-8", timeout=120, dimensions=(24, 80),
                          env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin", "TERM": "xterm",
                               "COLUMNS": "80", "LINES": "24"})
    child.delaybeforesend = None
    read: dict[str, str] = {}
    everything: list[str] = []
    for _ in range(5000):
        found = child.expect([PROMPT, MORE, END, pexpect.EOF])
        screen = child.before.replace("\r", "")
        everything.append(child.before)
        if found == 1:
            child.sendline("")
            continue
        if found >= 2:
            break
        offered = options(screen)
        question = screen[screen.rfind("P1, "):].split("\n")[0]
        answer = child.match.group(2) or "1"
        successor = re.search(r"successor in play: (?!none)([^,\r\n]+)", screen)
        if "hand" not in read and any(x.startswith("Play ") for x in offered):
            n = next(i for i, x in enumerate(offered, 1) if x.startswith("Play "))
            read["hand"] = choose(child, f"?{n}")
            everything.append(read["hand"])
            assert "(player card C" in read["hand"] and "where: in your hand" in read["hand"]
            assert "century: " in read["hand"]
        elif "look" not in read and successor:
            read["look"] = choose(child, f"look {successor.group(1).strip()}")
            assert "(successor S" in read["look"]
            assert re.search(r"where: in (your|P\d's) current successor", read["look"])
            assert "impact icon: " in read["look"]
        elif "choose one:" in question and offered[:2] == ["the top outcome", "the bottom outcome"] \
                and "event" not in read:
            read["event"] = choose(child, "?1") + choose(child, "?2")
            assert "top outcome: " in read["event"] and "bottom outcome: " in read["event"]
        elif "choose a bidding space:" in question and "bid" not in read:
            read["bid"] = choose(child, "?1")
            assert "(bidding space)" in read["bid"] and "a bid here: " in read["bid"]
            assert "the prizes of " in read["bid"]
        if "event" not in read and "Trigger Resolve Current Event" in offered:
            answer = str(offered.index("Trigger Resolve Current Event") + 1)
        elif "bid" not in read and "Trigger Host a Trade Conference" in offered:
            answer = str(offered.index("Trigger Host a Trade Conference") + 1)
        elif offered[:2] == ["bid", "pass"]:
            answer = "1"
        child.sendline(answer)
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert set(read) == {"hand", "look", "event", "bid"}, sorted(read)
    # a carriage return starts the line again (a bot's "is thinking" line is redrawn in
    # place), so what must fit the screen is each stretch between two of them
    shown = [ESCAPES.sub("", stretch) for line in "".join(everything).split("\n") for stretch in line.split("\r")]
    text = "\n".join(shown)
    assert "final scores:" in text or "winner:" in "".join(everything) + str(child.before)
    wide = [stretch for stretch in shown if len(stretch) > 80]
    assert not wide, wide[:5]  # the board, the questions, the cards read and the log fit 80 columns
