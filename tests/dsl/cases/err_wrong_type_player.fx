# An amount where a player is expected, and a player where an amount is expected.
# error: E202 "expected a player, found an amount"
gain 2 gold for 3
# error: E202 "expected an amount, found a player"
gain me gold
