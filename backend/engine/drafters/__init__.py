"""Drafters propose tokens for the target to verify; one file each, one small interface."""
