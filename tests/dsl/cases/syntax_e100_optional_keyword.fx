# E100, not E107: `draw N from Z` may end here, so no keyword is claimed missing.
# error: E100 "unexpected 'my'" hint "^expected one of: `to`, end of line$"
draw 2 from deck my hand
