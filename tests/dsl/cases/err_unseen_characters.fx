# A character that cannot be seen, looks like another (a letter of another alphabet drawn as a
# Latin one too), or is no letter a name may use is named by its code, with what to write
# (a user's trial: `ga<U+200B>in` was told "`ga` does not start a statement").
# error: E102 "U\+200B \(ZERO WIDTH SPACE\), which cannot be seen" hint "delete it"
ga​in 1 fame
# error: E102 "U\+00A0 \(NO-BREAK SPACE\): a space of another kind" hint "plain space"
gain 1 fame
# error: E102 "U\+201C" hint "plain double quotes"
log “hello”
# error: E102 "U\+043E \(CYRILLIC SMALL LETTER O\), which looks like `o`" hint "write the Latin `o`"
gain 1 gоld
# error: E102 "U\+00E9 \(LATIN SMALL LETTER E WITH ACUTE\)" hint "letters A-Z"
gain 1 féme
