# E110: a word that starts no statement and is close to none: the hint says what can start one.
# error: E110 "`xyzzy` does not start a statement" hint "a statement starts with a keyword .* or runs a procedure: `xyzzy\(\.\.\.\)`"
xyzzy 2 gold
