# This ruleset has three centuries: an era value has exactly three parts.
# error: E209 "needs 3 parts, one per era; found 2"
gain 20/50 gold
# error: E209 "found 4"
gain 1/2/3/4 gold
