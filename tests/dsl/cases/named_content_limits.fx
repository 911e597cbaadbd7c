# Named board items by id; item counters stop at their min and max (Legacies INV 5).
# expect: banking's value = 10
# expect: theater's value = 1
# expect: value of shipping = 7
raise banking's value by 20
lower theater's value by 9
set shipping's value to 7
