# E100: only `players` can be followed by `after`.
# error: E100 "unexpected 'after' after `coins`"
let x be coins after me
