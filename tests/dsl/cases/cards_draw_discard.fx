# draw, discard and shuffle move cards between zones (each player holds 3 cards,
# 10 are left in the deck).
# expect: count of cards in my hand = 0
# expect: count of cards in discard = 5
# expect: count of cards in deck = 8
draw 2 from deck to my hand
discard cards in my hand
shuffle deck
