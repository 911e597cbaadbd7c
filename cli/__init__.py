"""legacies.cli"""
