# E108: `transfer N from A to B` without `from`; then without `to` (E107).
# error: E108 "unexpected 'my'" hint "`transfer` goes on with `from` here"
transfer 5 my gold to my foundation
# error: E107 "unexpected 'my'" hint "`transfer` goes on with `to` here"
transfer 5 from my gold my foundation
