# Lists written out: `[A, B, C]` wherever a collection is wanted.
for each N in [1, 2, 3]:
    gain N gold
if my gold is in [105, 106, 107]:
    gain 1 fame
if my gold is not in [1, 2]:
    gain 1 fame
for each P in [me, player after me]:
    gain 1 foundation for P
choose one of [10, 20] as N
gain N foundation
# answer: 20
# expect: my gold = 106
# expect: my fame = 2
# expect: my foundation = 71
# expect for 2: my foundation = 51
# expect: count of ([1, 2] + [] + [3]) = 3
# expect: total value of [banking, shipping] = banking's value + shipping's value
# expect: entry 2 of [10, 20, 30] = 20
