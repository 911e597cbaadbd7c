# this: patronage
# An effect that plays itself would never end (a user's trial: it passed validate and
# the game stopped each time it was played). Inside an `if` it may stop: not said, the
# run's nesting limit stands guard; nor a trigger's, which plays the effect's statements.
gain 1 gold
# error: E224 "this effect plays itself \(`play this` inside the effect of the same item\), with nothing to stop it" hint "no recursion"
play this
if my gold < 3:
    play this
when census:
    play this
