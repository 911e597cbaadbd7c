# The else branch runs when no condition holds.
# expect: my gold = 90
if my fame > 0:
    gain 10 gold
else:
    lose 10 gold
