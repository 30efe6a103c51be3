"""Draftlight's Qt-free core: the speculative decoding engine, models, chats and settings."""

__version__ = "0.1.0"
