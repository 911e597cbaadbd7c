# Comparisons and booleans.
# expect: my gold > 50 and not (my fame > 0) = no
# expect: my gold >= 100 or no = yes
# expect: my gold != 100 = no
# expect: generation <= 1 and century < 2 = yes
# expect: my fame is 3 = yes
gain 3 fame
