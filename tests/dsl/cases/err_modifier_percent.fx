# A multiplying modifier takes a percentage (rounded up); yes/no quantities take `=`.
# error: E210 "multiplies by a percentage"
until generation_end: investment_cost * 2
# error: E202 "yes/no: only `= yes` or `= no` apply"
# error: E202 "expected a yes/no condition, found an amount"
until generation_end: relationship_tokens_advance + 1
