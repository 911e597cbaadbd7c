# `choose one KIND` (issue 34 §4): before, "`choose` goes on with `:`".
# error: E100 "unexpected 'industry'" hint "to choose one piece write `choose an industry \.\.\. as V`"
choose one industry as I
