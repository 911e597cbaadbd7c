"""The closures: each AST node compiled to a Python closure over the layout's integers,
the reference path the generated code (interpreter/codegen/) is tested against and
falls back to. One part per job, sharing a CompileContext; interpreter/compiler.py
makes the parts and is the entry point they compile their children through.
"""
