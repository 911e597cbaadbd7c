# An amount of zero never changes anything.
# warning: W301 "an amount of 0 never changes anything"
gain 0 gold
# warning: W301 "repeating 0 times"
repeat 0 times:
    gain 1 gold
