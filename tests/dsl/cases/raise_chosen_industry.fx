# Legacies: "Increase 1 industry value of your choice by 1 level".
# answer: Mining
# expect: mining's value = 4
# expect: banking's value = 3
choose an industry as X
raise X's value by 1
