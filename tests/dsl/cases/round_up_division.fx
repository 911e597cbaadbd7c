# Division rounds up unless it says `rounded down` (Legacies VAL 3); so does `* N%`.
# expect: 7 divided by 2 = 4
# expect: 7 divided by 2 rounded down = 3
# expect: 7 divided by 2 rounded up = 4
# expect: 6 divided by 3 = 2
# expect: 7 * 150% = 11
# expect: (my gold + 1) divided by 2 = 53
# expect: my gold = 104
gain 7 divided by 2 gold
