"""The checker's parts (dsl/checker.py puts them together): one CheckState shared by
parts that hold each other, no part inheriting another."""
