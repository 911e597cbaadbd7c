# E108: `draw N from ZONE` needs `from`.
# error: E108 "unexpected 'deck'"
draw 2 deck
