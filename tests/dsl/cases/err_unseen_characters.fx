# A character that cannot be seen, or looks like another, is named with what to write
# (a user's trial: `ga<U+200B>in` was told "`ga` does not start a statement").
# error: E102 "U\+200B \(ZERO WIDTH SPACE\), which cannot be seen" hint "delete it"
ga​in 1 fame
# error: E102 "U\+00A0 \(NO-BREAK SPACE\): a space of another kind" hint "plain space"
gain 1 fame
# error: E102 "U\+201C" hint "plain double quotes"
log “hello”
