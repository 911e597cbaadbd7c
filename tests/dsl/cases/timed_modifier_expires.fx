# ... and ends when the event is announced ("until end of generation").
# expect: my investment_cost = 100
# expect: investment_price(mining) = 6
until generation_end: investment_cost * 50%
announce generation_end
