"""The model manager window: find GGUF models on the Hub, download them, keep a local library
and pick draft models. Every piece of work runs on the Qt-free backend in backend/models/.
The window is in `app.model_manager.window`, imported when it first opens (launcher.py): it
brings the Hub client, which the main window's start does not need."""
