"""The side panel: which models answer, how they speculate and sample, or which server answers.
"""
