"""legacies.pipeline"""
