"""Models: the model session (what the engine holds), the model manager (search, downloads,
library, pairing) and draft compatibility.
"""
