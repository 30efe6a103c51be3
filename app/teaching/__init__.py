"""Teaching tools: the inspector, replay, race, charts, presentation mode, slow motion, the
lossless check and the advice under an answer.
"""
