# The century counter stops at its maximum (III) when raised past it, so the last part
# applies. (A `set` past it stops the game instead: never clamped in silence,
# tests/interpreter/test_validates_but_misbehaves.py.)
# expect: century = 3
# expect: 20/50/100 = 100
# expect: my gold = 200
raise century by 8
gain 20/50/100 gold
