# E212: a call with the wrong number of arguments names the parameters it takes.
# error: E212 "`investment_price` takes 1 argument \(X\), found 2" hint "write `investment_price\(X\)`"
let p be investment_price(banking, 2)
# error: E212 "`tokens_of` takes 2 arguments \(P, K\), found 1" hint "write `tokens_of\(P, K\)`"
let t be tokens_of(me)
# error: E212 "`tokens_of` takes 2 argument\(s\) \(P, K\)"
let u be tokens_of
