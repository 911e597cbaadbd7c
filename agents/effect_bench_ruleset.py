"""The ruleset the effect bench (agents/effect_bench.py) runs its effects on: a small
game of no one's, in neutral words, shaped like a mid-sized board game where it
matters to the figures (four players, a few player counters and a set of them, ten
board items with a bounded counter, a track that bumps, tokens in a supply, a timed
quantity, an event a card in play listens to, three eras). The bench writes it to a
temporary folder and loads it as any ruleset on disk, so `legacies bench` measures the
engine, never one shipped game's words."""

from __future__ import annotations

from pathlib import Path

NAME = "bench"

RULESET = """\
format: 2
ruleset: bench
title: Effect bench
players: {min: 2, max: 4}
eras: [I, II, III]
era_counter: age
era_word: age
hand: hand
score: points
limits: {max_turns: 50}
counters:
  coins: {}
  points: {}
  wood: {}
  stone: {}
  wool: {}
  ore: {}
  age: {scope: game, start: 1, min: 1, max: 3}
counter_sets:
  good: [wood, stone, wool, ore]
zones:
  deck: {scope: game, visibility: hidden}
  hand: {visibility: owner}
  shelf: {visibility: public, in_play: true}
  supply: {visibility: public}
kinds:
  station:
    piece: board
    plural: stations
    counters:
      level: {start: 3, min: 1, max: 15, label: level}
  ladder:
    piece: board
    track: {spaces: 5, bump: true, label: ladder}
  bell: {piece: board, plural: bells}
  marker: {piece: token, plural: markers, supply: 6, supply_zone: supply}
  card: {piece: card, starts_in: deck}
events:
  round_end: {label: the round ends}
  bell_rung:
    label: a bell is rung
    params: {bell: "kind:bell", actor: player}
quantities:
  discount: {type: amount, default: 0, label: coins off each purchase}
"""

PROCEDURES = """\
format: 2
actions:
  rest:
    label: Rest
    do: gain 1 coins
game: |
  take turns:
      perform one of rest
"""

CONTENT = """\
format: 2
ruleset: bench
items:
  - {id: north, kind: station, name: North}
  - {id: south, kind: station, name: South}
  - {id: east, kind: station, name: East}
  - {id: west, kind: station, name: West}
  - {id: harbour, kind: station, name: Harbour}
  - {id: quarry, kind: station, name: Quarry}
  - {id: mill, kind: station, name: Mill}
  - {id: forge, kind: station, name: Forge}
  - {id: orchard, kind: station, name: Orchard}
  - {id: tower, kind: station, name: Tower}
  - {id: great_ladder, kind: ladder, name: The Great Ladder}
  - {id: small_bell, kind: bell, name: The Small Bell}
  - {id: loud_bell, kind: bell, name: The Loud Bell}
  - {id: filler, kind: card, name: Filler, copies: 20}
  - id: listener
    kind: card
    name: The Listener
    effect: |
      when bell_rung where bell is small_bell or bell is loud_bell:
          gain 3/4/5 coins
"""


def write(folder: Path) -> Path:
    """The ruleset's files under `folder` (rules/bench/, content/bench/); returns the
    folder to load it from (`load_ruleset(NAME, root=folder)`)."""
    rules, content = folder / "rules" / NAME, folder / "content" / NAME
    rules.mkdir(parents=True)
    content.mkdir(parents=True)
    (rules / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    (rules / "procedures.yaml").write_text(PROCEDURES, encoding="utf-8")
    (content / "pieces.yaml").write_text(CONTENT, encoding="utf-8")
    return folder
