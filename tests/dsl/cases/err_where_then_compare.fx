# `where` takes the rest of the expression as its condition: a comparison of what the filter
# finds needs brackets (a user's trial was told "`if` goes on with `:` here").
# error: E100 "unexpected '>='" hint "parenthesise it, `\(opponents where its fame > my fame\) >= \.\.\.`"
if count of opponents where its fame > my fame >= 2:
    gain 1 gold
