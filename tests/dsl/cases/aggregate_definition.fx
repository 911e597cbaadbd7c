# `total NAME of C` (and `highest`, `lowest`) asks a definition of one parameter of every
# member when NAME is one: investment_price(X) is X's value x 2 shares at the investment
# cost, foundation_step(P) a player's Foundation step (1, 5 from 50, 25 from 150).
set banking's value to 4
set shipping's value to 6
gain 100 foundation
# expect: total investment_price of [banking, shipping] = 20
# expect: highest investment_price of [banking, shipping] = 12
# expect: lowest investment_price of [banking, shipping] = 8
# expect: total investment_price of (industries where its value > 100) = 0
# expect: total foundation_step of players = 35
# expect: highest foundation_step of opponents = 5
