# Unknown attributes of a player and of an item.
# error: E203 "a player has no `gols`" hint "did you mean `gold`\?"
gain my gols fame
# error: E203 "an industry has no `colour`"
gain shipping's colour gold
