"""Building a ruleset's GameSpec from its loaded files: the passes in order
(build/passes.py) and the parts they share (base.py) and do (layers, vocabulary, rules,
hooks, content, map, display, table)."""
