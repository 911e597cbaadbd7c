# Legacies: "Transfer up to 20 gold from your foundation to your gold supply (or
# vice versa)". The player picks the direction, then the amount.
# answer: from Foundation to gold
# answer: 20
# expect: my foundation = 30
# expect: my gold = 120
transfer up to 20 from my foundation to my gold either way
