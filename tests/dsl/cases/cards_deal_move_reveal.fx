# deal to several players, move cards to a game zone, reveal the top of the deck.
# expect: count of cards in my hand = 4
# expect for 3: count of cards in my hand = 4
# expect: count of cards in market = 2
# expect: count of cards in deck = 5
deal 1 from deck to hand of players
move top 2 of deck to market
reveal top 1 of deck
