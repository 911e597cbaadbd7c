# E100: a parenthesis left open runs into the next statement; the hint says where it opened.
let x be (1 +
    2
# error: E100 "unexpected 'gain'" hint "the parenthesis opened on line 2, column 10 is still open here"
gain 1 fame
