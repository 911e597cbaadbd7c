# for each over a filtered collection: the two progress industries pay their value.
# expect: my gold = 106
for each X in industry where its group is progress:
    gain X's value gold
