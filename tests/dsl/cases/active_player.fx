# `active_player` is whoever takes the current turn (player 1 at the start).
# expect: active_player is me = yes
# expect: my gold = 102
gain 2 gold for active_player
