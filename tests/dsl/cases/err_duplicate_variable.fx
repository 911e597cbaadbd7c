# A name is bound once per scope, and never shadows a ruleset name.
let x be 1
# error: E211 "`x` is already defined here"
let x be 2
# error: E211 "`gold` already names something in this ruleset"
let gold be 3
