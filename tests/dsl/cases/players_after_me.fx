# `players after me` in turn order, not wrapping round; `me` is not among them.
# players: 4
# expect: count of players after me = 3
# expect for 3: count of players after me = 1
# expect for 3: count of players before me = 2
# expect for 3: top of players starting with me = me
# expect for 3: count of players starting with me = 4
# expect: me is in players after me = no
# expect: my fame = 0
# expect for 2: my fame = 1
# expect for 4: my fame = 1
for each P in players after me:
    gain 1 fame for P
