# E106: `divided` needs `by` (as do `raise X by N` and `lower X by N`).
# error: E106 "unexpected end of line"
let half be my gold divided
