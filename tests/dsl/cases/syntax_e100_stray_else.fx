# E100: an `else` with no `if` block before it.
gain 1 gold
# error: E100 "unexpected 'else'" hint "`else` follows the block of an `if`"
else:
    gain 2 gold
