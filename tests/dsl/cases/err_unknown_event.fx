# Events are the ones the ruleset declares, with their parameters.
# error: E205 "unknown event `generation_ends`" hint "did you mean `generation_end`\?"
announce generation_ends
# error: E205 "unknown event `end_of_time`" hint "the ruleset.s events: `"
until end_of_time: investment_cost * 50%
# error: E205 "event `card_played` needs card"
announce card_played
