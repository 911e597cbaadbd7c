# `player after P` / `player before P`: one player, wrapping round the turn order
# (`players after P` does not wrap). Player 1 acts; there are 3 players.
# players: 3
gain 1 fame for player after me
gain 2 fame for player before me
gain 5 gold for player after (player after (player after me))
# expect for 2: my fame = 1
# expect for 3: my fame = 2
# expect: my gold = 105
# expect: count of players after (player before me) = 0
