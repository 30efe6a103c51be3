"""The link to the engine: the worker thread that talks to the engine process, and the GUI thread's
handle on it.
"""
