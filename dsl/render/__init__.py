"""The renderer's parts (dsl/renderer.py words statements and declarations): expressions
and collections as English, and the sources an effect's card text names."""
