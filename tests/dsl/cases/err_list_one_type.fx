# E202: a list holds values of one type, and only values a collection can hold.
# error: E202 "a list holds values of one type: this is an amount, the first is a player" hint "one kind of value"
let x be [me, 3]
# error: E202 "a list cannot hold a text" hint "lists hold numbers, players"
let y be ["a", "b"]
