# `A modulo B`: the remainder, from 0 to B - 1; as tight as `*` and `divided by`.
gain 17 modulo 5 gold
gain -1 modulo 4 fame
# expect: my gold = 102
# expect: my fame = 3
# expect: 7 * 3 modulo 4 = 1
# expect: 2 + 9 modulo 4 = 3
# expect: (my gold + 1) modulo 10 = 3
