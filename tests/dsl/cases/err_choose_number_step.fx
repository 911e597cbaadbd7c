# E202: a literal step below 1 (`step -1` too); E208: a condition that never holds.
# error: E202 "a step must be at least 1, not 0" hint "`step 1` or more"
choose a number from 1 to 10 step 0 as N
# error: E202 "a step must be at least 1, not -2"
choose a number from 1 to 10 step -2 as M
# error: E208 "this choice has no options"
choose a number from 1 to 10 where no as K
