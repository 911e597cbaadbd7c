# choose up to N from a filtered collection; `done` stops early.
# answer: Banking
# answer: done
# expect: banking's value = 4
# expect: shipping's value = 3
set theater's value to 6
choose up to 2 industry where its value < 5 as picks
for each X in picks:
    raise X's value by 1
