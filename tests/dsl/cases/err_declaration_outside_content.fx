# Triggers and `while in play` belong on content items.
# error: E214 "belong on content items"
when generation_end:
    gain 1 gold
