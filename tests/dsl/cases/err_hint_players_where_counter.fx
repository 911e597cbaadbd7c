# error: E201 "unknown name `gld`" hint "did you mean `its gold`\?"
let n be count of (players where gld > 3)
