# A misspelt `where` (issue 34 §4): before, "`choose` goes on with `as`" (in a choice) or
# "expected `)`"; the parser had reduced past where `where` fitted, so the hint is found
# among the words that go on an expression.
# error: E100 "unexpected 'whre'" hint "did you mean `where`\?"
choose a card in my hand whre its cost > 3 as C
