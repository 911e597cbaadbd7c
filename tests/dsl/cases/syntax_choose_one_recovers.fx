# Errors among the options of `choose one:` are set aside as options, so parsing goes on.
choose one:
    "a":
        # error: E110 "`gian` does not start a statement"
        gian 1 gold
    # error: E105 "unexpected 'gain'"
    "b" gain 1 gold
# error: E100 "unexpected 'fame'"
gain 1 gold fame
