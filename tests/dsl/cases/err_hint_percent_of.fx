# `10% of X` as it is said (issue 34 §4): a percentage multiplies.
# error: E100 "unexpected 'of'" hint "write `X \* 10%`, not `10% of X`"
let n be 10% of my gold
