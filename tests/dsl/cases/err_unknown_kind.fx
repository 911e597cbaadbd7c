# A selection names a kind (or its plural) or a generic noun like `cards`.
# error: E201 "unknown kind `industrys`" hint "industry"
choose an industrys in market as X
