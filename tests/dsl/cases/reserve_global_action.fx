# Legacies: "Place a relationship token on an empty non-mandatory global action -
# only you may select that action this generation".
# answer: Collect Dividends
# expect: count of relationship_tokens in ga_dividends = 1
# expect: ga_dividends is empty = no
# expect: may_select of ga_dividends = yes
# expect for 2: may_select of ga_dividends = no
# expect for 2: may_select of ga_influence = yes
choose a global_action where it is empty and not its mandatory as A
place my relationship_token on A
until generation_end: may_select of A = no for opponents
