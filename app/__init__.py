"""Draftlight's Qt (PySide6) desktop app: windows, widgets, the engine's worker thread."""
