# this: patronage
# An effect that plays itself would never end (a user's trial: it passed validate and
# the game stopped each time it was played).
gain 1 gold
# error: E224 "this effect plays itself \(`play this` inside the effect of the same item\)" hint "no recursion"
play this
when census:
    play this
