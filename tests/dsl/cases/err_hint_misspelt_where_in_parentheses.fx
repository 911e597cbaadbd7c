# error: E100 "unexpected 'whre'" hint "did you mean `where`\?"
let n be count of (players whre its fame > 3)
