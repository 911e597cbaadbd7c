# E104: a misspelt `as` gets a did-you-mean, with the code of the missing keyword.
# error: E104 "unexpected 'az'" hint "^did you mean `as`\?$"
choose an industry az X
# error: E104 "unexpected 'AS'" hint "did you mean `as`\? \(keywords are written in lower case\)"
choose an industry AS Y
