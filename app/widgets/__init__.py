"""Small widgets the rooms share.
"""
