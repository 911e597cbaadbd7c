# E202: a literal divisor of modulo must be at least 1.
# error: E202 "modulo 0: the remainder needs a divisor of at least 1" hint "from 0 to B - 1"
let x be my gold modulo 0
# error: E202 "modulo -3"
let y be my gold modulo -3
