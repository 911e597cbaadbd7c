# E107: `set X to N` (not a block opener's missing `:`).
# error: E107 "unexpected '3'" hint "`set` goes on with `to` here: `set TARGET to VALUE`"
set my gold 3
