"""legacies.dsl"""
