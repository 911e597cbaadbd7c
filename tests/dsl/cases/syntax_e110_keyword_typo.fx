# E110: a statement that starts with a misspelt keyword gets a did-you-mean.
gain 1 gold
# error: E110 "`gian` does not start a statement" hint "^did you mean `gain`\?$"
gian 2 gold
