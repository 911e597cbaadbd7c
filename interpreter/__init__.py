"""legacies.interpreter"""
