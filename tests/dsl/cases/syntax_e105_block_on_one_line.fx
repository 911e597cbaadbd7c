# E105: a block opener with its block on the same line still needs `:`.
# error: E105 "unexpected 'gain'" hint "`if` goes on with `:` here"
if my gold > 2 gain 1 fame
