# A negative amount turns gain, lose and pay round (a user's trial: `pay -5 fame` gave
# 5 fame, said by nothing); a track stepped back (`advance ... by -1`) is meant: not said.
# warning: W308 "`pay -5` does the opposite of `pay 5`" hint "write `gain 5`"
pay -5 gold
# warning: W308 "turns `gain` round" hint "write `lose 3`"
gain -3 fame
# warning: W308 "turns `lose` round" hint "write `gain 2`"
lose -2 fame
gain 1 gold
