# E104: a choice names what was chosen with `as NAME`.
# error: E104 "unexpected end of line"
choose an industry
