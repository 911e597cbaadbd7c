# Transfer between players: every opponent hands over 5 gold.
# expect: count of opponents = 2
# expect: my gold = 110
# expect for 2: my gold = 95
# expect for 3: my gold = 95
for each P in opponents:
    transfer 5 from P's gold to my gold
