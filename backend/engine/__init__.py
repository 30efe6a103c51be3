"""Speculative decoding over llama-cpp-python's low-level API; yields events, knows no UI.

Import what you need from its modules: `backend.engine.engine.Engine` loads llama.cpp, while
`events`, `request`, `errors` and `remote` (the engine in its own process) do not, so the
window's process can use them without ever loading llama.cpp.
"""
