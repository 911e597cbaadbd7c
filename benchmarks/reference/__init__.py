"""Hand-written games, in plain Python with no engine, that `legacies bench` times beside
the engine playing the same rules (`legacy_vs_reference`): see legacy.py."""
