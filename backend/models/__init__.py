"""GGUF models: inspection and validation, the local library, the Hugging Face hub."""
