"""The code generator: Python source written from the checked AST and compiled once per
Game, in front of the closures (interpreter/compile/), which stay its fallback and its
reference. interpreter/compiler.py makes its parts beside the closures'.

`LEFT_TO_CLOSURES` is the list of what the generator does not write, each with why: a
construct of the registry (dsl/constructs.py) that has no writer here and is not on it
fails tests/interpreter/test_codegen.py, so a new construct cannot fall back to the
slower path unnoticed. Statements that may ask a decision are not on it: they keep their
frames (a decision stays resumable, clonable and saved) by design, and the generator
writes their expressions.
"""

LEFT_TO_CLOSURES: dict[str, str] = {
    "ConnectedGroup": "a walk of the graph of places, charged by the graph as it goes (interpreter/graph.py)",
    "SpaceOf": "rare (a space of a track named by number); its closure checks the track and the number",
    "TimedModifier": "adds a modifier for a while: one call, nothing to gain inline",
    "Shuffle": "one call of the seeded shuffle of a zone: nothing to gain inline",
    "Reveal": "rare; each piece revealed is a set's add and a log line made when read: one call",
}
