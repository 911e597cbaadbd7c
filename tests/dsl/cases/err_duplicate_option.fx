# Two options of one choice cannot share a label.
choose one:
    "gold":
        gain 1 gold
    # error: E215 "two options are labelled \"gold\""
    "gold":
        gain 2 gold
