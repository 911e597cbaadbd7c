"""legacies.rules"""
