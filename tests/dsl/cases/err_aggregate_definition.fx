# A definition added up over a collection takes one parameter, of the members' type, and is an amount.
# error: E212 "`tokens_of` takes 2 arguments"
# error: E202 "`tokens_of` is relationship token pieces, not an amount"
gain total tokens_of of players gold
# error: E202 "`player_of` is a player, not an amount"
gain total player_of of characters gold
# error: E202 "expected a player, found an industry"
gain total foundation_step of industries gold
