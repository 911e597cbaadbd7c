# E107: `move X to ZONE` needs `to`.
# error: E107 "unexpected 'my'"
move top 1 of deck my hand
