# Unknown names in expressions, with a suggestion when one is close.
# error: E201 "unknown name `centry`" hint "did you mean `century`\?"
let c be centry + 1
# error: E201 "unknown name `qwxz`"
let d be qwxz
