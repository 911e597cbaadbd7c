# E100: `is the same card as` is written with the word `card`.
# error: E100 "unexpected 'piece'" hint "`A is the same card as B`"
let x be A is the same piece as B
