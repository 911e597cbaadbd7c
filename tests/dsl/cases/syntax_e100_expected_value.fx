# E100: a value is missing.
# error: E100 "unexpected end of line" hint "expected a value"
let x be 1 if my gold > 2 else
gain 1 fame
