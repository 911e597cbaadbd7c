# E106: `raise X by N`, `lower X by N` and `advance K by N` name their own form.
# error: E106 "unexpected '2'" hint "`raise` goes on with `by` here: `raise COUNTER by N`"
raise my gold 2
# error: E106 "unexpected '5'" hint "`lower` goes on with `by` here"
lower my gold 5
# error: E106 "unexpected '1'" hint "`advance` goes on with `by` here: `advance TRACK by N`"
advance duke 1
