# An unknown name in a nested `where` (issue 34 §4): a member's own attribute is `its
# NAME`; before, the hint was none (or a far-off name of the ruleset).
# error: E201 "unknown name `gruop`" hint "did you mean `its group`\?"
let n be count of (characters where count of (industries where gruop is government) > 0)
