# A timed modifier holds until its event: investments cost half for now.
# expect: my investment_cost = 50
# expect: investment_price(mining) = 3
# expect for 2: my investment_cost = 100
until generation_end: investment_cost * 50%
