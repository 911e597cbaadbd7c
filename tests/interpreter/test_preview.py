"""What an option would play (interpreter/preview.py), worked out before anyone commits:
the walk goes into every block a statement holds (its construct's `blocks`), `as P:` and
`take turns:` included (`as P:` it once skipped)."""

from __future__ import annotations

from legacies.interpreter.game import Game
from legacies.interpreter.preview import plays
from legacies.interpreter.sandbox import checked_program
from legacies.pipeline.ruleset import load_ruleset


def _names(state, found) -> list[str]:  # type: ignore[no-untyped-def]
    return [state.game.spec.defs[p.definition].id for p in found]


def test_the_preview_walks_into_every_block() -> None:
    loaded = load_ruleset("legacy")
    assert loaded.spec is not None
    state = Game(loaded.spec, 2).new_state(1)
    top = state.st.zones[state.game.layout.game_zone["legacy_deck"]][-1]
    wanted = state.game.spec.defs[state.game.layout.piece_def[top]].id
    for source in ("play top of legacy_deck", "as me:\n    play top of legacy_deck",
                   "if 1 > 0:\n    play top of legacy_deck", "for each P in players:\n    play top of legacy_deck",
                   "may:\n    play top of legacy_deck", 'choose one:\n    "a": play top of legacy_deck\n    "b": gain 1 points'):
        program = checked_program(state, source)
        found = _names(state, plays(state.st, program.statements, 0))
        assert found == [wanted], source
