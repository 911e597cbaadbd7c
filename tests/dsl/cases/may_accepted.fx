# may: accepting runs the block.
# answer: yes
# expect: my gold = 90
# expect: my fame = 1
may "Pay 10 gold for 1 fame?":
    pay 10 gold
    gain 1 fame
