# Paying more than you have is refused, and the whole effect is undone.
# fails: "cannot pay 500 gold"
gain 5 fame
pay 500 gold
