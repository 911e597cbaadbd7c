"""legacies.content"""
