# E107: `move X Y` is missing its `to`; the hint names `move`'s own forms and never
# claims it is a misspelt `by` (Y is a name, not a typo).
# error: E107 "unexpected 'Y'" hint "^(?!.*did you mean)`move` goes on with `to` or `by` here: `move X to Z .*`move TOKEN by N"
move X Y
