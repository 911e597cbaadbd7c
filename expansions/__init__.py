"""Data: the installed expansions, one folder each (expansions/<name>/expansion.yaml,
rules/<ruleset>/, content/<ruleset>/), found by name (`--expansion NAME`, pipeline/stack.py)."""
