# A misspelled counter is unknown, and the checker suggests the closest name.
# error: E201 "unknown counter `gld`" hint "did you mean `gold`\?"
gain 2 gld
# error: E201 "unknown counter `fam`" hint "did you mean `fame`\?"
lose 1 fam
