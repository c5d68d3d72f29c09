"""The exact searches: least deadwood, best lay-offs, splitting a heap into melds."""
