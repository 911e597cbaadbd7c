# may: declining skips the whole block.
# answer: no
# expect: my gold = 100
may "Pay 10 gold for 1 fame?":
    pay 10 gold
    gain 1 fame
