# E103: a dedent that matches no outer block.
if my gold > 1:
        gain 1 gold
# error: E103 "does not match any outer block"
    gain 2 gold
