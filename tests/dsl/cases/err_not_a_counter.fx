# Only counters can change: not numbers, not quantities, not attributes.
# error: E204 "not a counter"
raise 3 by 1
# error: E204 "not a counter"
set my investment_cost to 5
# error: E204 "not a counter"
transfer 5 from my gold to ga_event's mandatory
