# The century counter stops at its maximum (III), so the last part applies.
# expect: century = 3
# expect: 20/50/100 = 100
# expect: my gold = 200
set century to 9
gain 20/50/100 gold
