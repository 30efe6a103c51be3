"""The window's shell: the main window and its menus, theme, style, languages, About, logs, the
crash dialog, start-up and the desktop entry.
"""
