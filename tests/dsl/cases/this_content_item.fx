# `this` is the content item the effect is written on.
# this: patronage
# expect: this's cost = 30
# expect: my gold = 130
gain this's cost gold
