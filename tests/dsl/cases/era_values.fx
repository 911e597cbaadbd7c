# `20/50/100` takes the value of the current century (Legacies VAL 1): I, II, III.
# expect: era = 2
# expect: century = 2
# expect: 20/50/100 = 50
# expect: my gold = 150
set century to 2
gain 20/50/100 gold
