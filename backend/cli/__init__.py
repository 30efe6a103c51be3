"""Headless commands (`draftlight generate`, `draftlight models …`) on the same code as the app."""
