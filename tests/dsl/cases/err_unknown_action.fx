# perform names the ruleset's actions.
# error: E206 "unknown action `invset`" hint "did you mean `invest`\?"
perform one of invset, pass_turn
