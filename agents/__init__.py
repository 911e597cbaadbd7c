"""legacies.agents: who answers decisions: bots of several strengths and a human at
the terminal, plus the match runner that seats them around a game."""
