"""Drafters propose tokens for the target to verify; one file each, one small interface
(`base`). Those that follow the target's hidden states (MTP, EAGLE-3) share `follower`."""
