# E102: a character the language does not use.
# error: E102 "unexpected character '\$'"
gain 2 gold $
