"""Conversations: the chat list, the chat session and store, what a person does with messages, the
message box, the welcome view and the context budget.
"""
