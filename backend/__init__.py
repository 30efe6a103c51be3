"""Draftlight's Qt-free core: the speculative decoding engine, models, chats and settings."""

__version__ = "0.1.0"
# The name of the app's files, folders and commands; "Draftlight" where people read it.
APP_NAME = "draftlight"
APP_TITLE = "Draftlight"
