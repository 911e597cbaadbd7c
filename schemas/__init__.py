"""legacies.schemas"""
