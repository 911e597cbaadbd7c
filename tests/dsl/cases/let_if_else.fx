# let binds a value; if / else if / else picks the first branch that holds.
# expect: my fame = 2
# expect: my gold = 100
let third be my gold divided by 3
if third > 50:
    gain 1 fame
else if third = 34:
    gain 2 fame
else:
    gain 3 fame
