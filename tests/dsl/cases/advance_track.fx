# `advance` moves every token on a track; past the end, tokens go home.
# expect: count of relationship_tokens in duke = 1
# expect: count of relationship_tokens in my supply = 4
place my relationship_token on duke
place my relationship_token on duke
advance duke by 3
