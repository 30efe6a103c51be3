"""One answer on screen: the answer as the window keeps it, its coloured tokens, Markdown view,
message widgets and export.
"""
