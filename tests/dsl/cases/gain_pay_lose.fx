# Gain, pay and lose change the player's own counters (player 1 starts with 100
# gold and 0 fame). `lose` stops at the counter's floor; it is never refused.
# expect: my gold = 107
# expect: my fame = 0
# expect for 2: my gold = 100
gain 10 gold
pay 3 gold
gain 2 fame
lose 5 fame
