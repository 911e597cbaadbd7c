# E202: `pick at random` picks from a collection; W301: picking 0.
# error: E202 "expected something to pick from, found an amount" hint "pick at random a card in my hand as C"
pick at random a my gold as X
# warning: W301 "picking 0 never picks anything"
pick at random 0 players as P
