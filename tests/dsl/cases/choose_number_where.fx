# `choose a number from N to M [step S] where CONDITION as V`: `it` is each number;
# only the numbers for which the condition holds are offered.
choose a number from 0 to 20 step 2 where it modulo 3 is 0 and it > 0 as N
gain N gold
# answer: 12
# expect: my gold = 112
