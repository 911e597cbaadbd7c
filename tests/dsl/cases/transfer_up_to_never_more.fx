# `up to` never offers more than the source holds: with 5 Foundation, 5 is the most.
# answer: from Foundation to gold
# answer: 5
# expect: my foundation = 0
# expect: my gold = 105
set my foundation to 5
transfer up to 20 from my foundation to my gold either way
