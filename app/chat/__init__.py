"""Conversations: the answer flow (send, regenerate, continue, stop, and what each answer was
made with), the chat list, the chat session and store, what a person does with messages, the
message box, the welcome view and the context budget.
"""
