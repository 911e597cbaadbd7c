# E107: only the forms of `choose` that fit what is written are shown (not `choose up to N`).
# error: E107 "unexpected '5'" hint "^`choose` goes on with `to` here: `choose a number from N to M \[step S\] \[where CONDITION\] as V`$"
choose a number from 1 5 as N
