# choose N: when only N members qualify, they are taken without asking.
# expect: banking's value = 4
# expect: theater's value = 4
# expect: shipping's value = 7
set shipping's value to 7
set mining's value to 7
choose 2 industry where its value < 5 as picks
for each X in picks:
    raise X's value by 1
