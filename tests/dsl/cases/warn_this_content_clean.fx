# With a content item, `this` and declarations are fine; only the warning remains.
# this: patronage
# warning: W302 "never true"
if this's cost > 10 and no:
    gain 1 gold
when generation_end:
    gain this's cost gold
while in play: investment_cost * 150%
