# More type errors: a condition that is not yes/no, a zone that is not a zone,
# and placing on something that holds no tokens.
# error: E202 "expected a yes/no condition, found an amount"
if my gold:
    gain 1 fame
# error: E202 "expected a zone, found an amount"
draw 2 from my gold to my hand
# error: E202 "an industry has no track and holds no tokens"
place my relationship_token on banking
