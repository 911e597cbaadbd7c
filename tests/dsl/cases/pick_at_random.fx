# `pick at random`: chance, not a choice (no answer is asked for). Seed 0, 3 players.
pick at random 2 players as P
for each X in P:
    gain 1 fame for X
pick at random a card in my hand as C
discard C
pick at random 5 players as Q
gain count of Q gold
# expect: total fame of players = 2
# expect: count of my hand = 2
# expect: my gold = 103
