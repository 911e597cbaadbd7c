# E103: only the lines of a block are indented.
gain 1 gold
# error: E103 "unexpected indentation"
    gain 2 gold
