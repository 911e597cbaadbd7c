# E202: the winner of `end the game` is a player, and not nobody; a reason's `{...}`
# parts are checked like a log line's.
# error: E202 "nobody cannot win" hint "`end the game`"
end the game with nobody as the winner
# error: E202 "expected a player, found an amount"
end the game with 3 as the winner
# error: E201 "in `\{nope\}`: unknown name `nope`"
end the game with me as the winner because "{nope} won"
