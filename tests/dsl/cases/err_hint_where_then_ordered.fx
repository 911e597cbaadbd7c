# `where` takes the rest as its condition (issue 34 §4): the filter is parenthesised.
# error: E100 "unexpected 'ordered'" hint "parenthesise the filter, `\(players where its fame > 3\) ordered by \.\.\.`"
let p be top of (players where its fame > 3 ordered by its gold)
