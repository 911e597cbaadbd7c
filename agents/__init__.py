"""legacies.agents"""
