# `it` / `its` only mean something inside `where`.
# error: E213 "only has a meaning inside `where`"
let v be its value
