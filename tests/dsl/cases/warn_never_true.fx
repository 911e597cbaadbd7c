# A condition that is never true guards nothing.
# warning: W302 "never true"
if no:
    gain 1 gold
# warning: W302 "never true"
if 1 > 2 and my gold > 0:
    gain 1 gold
