# A track bumps (Legacies REL 3): five tokens on a four-space track; the first one placed is
# pushed past the end and goes back to its owner's supply.
# expect: count of relationship_tokens in duke = 4
# expect: count of relationship_tokens in my supply = 1
# expect: count of relationship_tokens in merchant = 0
repeat 5 times:
    place my relationship_token on duke
