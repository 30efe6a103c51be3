"""Draftlight's non-code assets (the application icon in SVG and PNG, the desktop entry's
template). Installed as the package `draftlight_resources` (setup.py maps it to this folder)
so that the wheel and the bundle carry it; `app/resources.py` is the one place that reads it."""
