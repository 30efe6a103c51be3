"""The model manager window: find GGUF models on the Hub, download them, keep a local library
and pick draft models. Every piece of work runs on the Qt-free backend in backend/models/."""

from app.model_manager.window import ModelManagerWindow

__all__ = ["ModelManagerWindow"]
