# E202: `is the same card as` compares pieces.
choose a card in my hand as C
# error: E202 "`is the same card as` compares pieces, found an amount" hint "`A is B`"
let x be C is the same card as 3
