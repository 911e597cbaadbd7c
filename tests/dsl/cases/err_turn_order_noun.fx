# E202: only `players` (every later player) and `player` (the next one, wrapping round)
# follow one another in turn order; the checker refuses any other word, with both forms.
# error: E202 "`coins after P`: only players follow one another" hint "`players after P`.*`player after P`"
let x be coins after me
# error: E202 "`player starting with P` is not one player" hint "`players starting with P`"
let y be player starting with me
