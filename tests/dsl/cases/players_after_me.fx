# `players after me` in turn order, wrapping around; `me` is not among them.
# players: 4
# expect: count of players after me = 3
# expect: me is in players after me = no
# expect: my fame = 0
# expect for 2: my fame = 1
# expect for 4: my fame = 1
for each P in players after me:
    gain 1 fame for P
