# The parser reports every bad line of an effect, each at its own line and with its
# own code: after an error it sets the bad statement aside and parses on.
# error: E110 "`gian` does not start a statement" hint "did you mean `gain`"
gian 2 gold
lose 1 fame
# error: E107 "unexpected 'my'"
move top of deck my hand
if my gold > 3:
    # error: E106 "unexpected '2'" hint "`raise` goes on with `by`"
    raise my gold 2
    gain 1 fame
# error: E108 "unexpected 'deck'"
draw 2 deck
