# E103: after an indentation error the lines are moved back in line and parsed on,
# so the errors after it are reported too.
gain 1 gold
# error: E103 "unexpected indentation"
    gain 2 gold
    # error: E100 "unexpected 'fame'" hint "expected one of: `for`, end of line"
    lose 1 fame fame
if my gold > 1:
        gain 1 gold
# error: E103 "does not match any outer block" hint "indented 4 spaces, the blocks around it 0 or 8"
    gain 2 gold
# error: E108 "unexpected 'deck'"
draw 2 deck
