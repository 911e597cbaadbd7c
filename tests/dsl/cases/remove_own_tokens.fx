# remove sends tokens back to their owner's supply.
# expect: count of relationship_tokens in duke = 0
# expect: count of relationship_tokens in my supply = 5
place my relationship_token on duke
place my relationship_token on duke
remove relationship_tokens in duke where owner of it is me
