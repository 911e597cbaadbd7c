# E201: did-you-mean hints ignore case.
# error: E201 "unknown counter `Golds`" hint "did you mean `gold`\?"
gain 1 Golds
# error: E201 "unknown name `Centry`" hint "did you mean `century`\?"
let c be Centry + 1
