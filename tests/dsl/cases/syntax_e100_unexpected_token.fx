# E100: a token where none can go.
gain 2 gold
# error: E100 "unexpected 'gold'"
gain 2 gold gold
