# E104: the auction's form is named, not a choice's.
# error: E104 "unexpected 'W'" hint "`auction` goes on with `as` here: `auction among PLAYERS for COUNTER as W and B`"
auction among players for gold W and B
