"""The referee's checkers: a meld, an opening, a hand, a turn (the table before and after)."""
