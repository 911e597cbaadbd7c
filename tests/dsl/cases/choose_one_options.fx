# choose one: an option whose condition fails is not offered.
# answer: Take fame
# expect: my fame = 1
# expect: my gold = 100
choose one:
    "Take gold" if my gold < 5:
        gain 3 gold
    "Take fame":
        gain 1 fame
    "Take both":
        gain 1 fame
        gain 3 gold
