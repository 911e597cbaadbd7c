# E110 also for a statement written after the `:` of an option or an `if`, on the same line.
choose one:
    # error: E110 "`gian` does not start a statement" hint "did you mean `gain`\?"
    "more fame": gian 2 fame
    "more gold": gain 1 gold
# error: E110 "`gian` does not start a statement" hint "did you mean `gain`\?"
if my gold > 3: gian 2 fame
