# `this` is the content item; a rules effect has none.
# error: E213 "`this` means the content item itself"
gain this's cost gold
