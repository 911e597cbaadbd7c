# E101: a block opener at the very end, with no block.
gain 1 gold
# error: E101 "ends too early"
if my gold > 3:
