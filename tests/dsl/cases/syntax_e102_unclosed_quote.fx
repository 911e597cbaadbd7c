# E102: a quoted text ends on its own line.
# error: E102 "unexpected character '\"'" hint "close the quote"
log "unfinished
# error: E102 "unexpected character '&'" hint "write `and`"
if my gold > 1 & my fame > 1:
    gain 1 gold
