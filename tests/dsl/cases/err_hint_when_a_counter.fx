# `when fame:` (issue 34 §4): a counter is no event; before, the hint was none.
# error: E214 "triggers and `while in play` belong on content items"
# error: E205 "unknown event `fame`" hint "`fame` is a counter, not an event: a trigger answers an event the ruleset declares .* Its events: `generation_end`"
when fame:
    gain 1 gold
