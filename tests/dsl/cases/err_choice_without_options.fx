# A choice whose condition can never hold has no options.
# error: E208 "no options"
choose an industry where no as X
# error: E208 "every option's condition is never true"
choose one:
    # warning: W302 "never true"
    "a" if no:
        gain 1 gold
    # warning: W302 "never true"
    "b" if 1 > 2:
        gain 2 gold
