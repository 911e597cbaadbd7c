# E105: a block opener ends with `:`.
# error: E105 "unexpected end of line"
for each P in opponents
    gain 1 fame for P
