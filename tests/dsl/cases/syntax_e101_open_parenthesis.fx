# E101: a parenthesis left open until the end.
# error: E101 "ends too early"
let x be (1 + 2
