# "a industry" (issue 34 §4): a kind asked as it is said; before, "`if` goes on with `:`".
# error: E100 "unexpected 'industry'" hint "whether a piece is of a kind is `X is in` and the kind's plural .*`X is in industries`"
if top of (industries) is a industry:
    gain 1 gold
