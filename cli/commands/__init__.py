"""The commands of `legacies`, one module per group; cli/main.py loads a module when one
of its commands runs or shows its help."""
