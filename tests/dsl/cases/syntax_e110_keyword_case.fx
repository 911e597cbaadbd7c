# E110: keywords are lower case; the did-you-mean ignores case.
# error: E110 "`Gain` does not start a statement" hint "did you mean `gain`\? \(keywords are written in lower case\)"
Gain 2 gold
