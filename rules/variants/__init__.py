"""One module per variant: opening, hand, round and game scoring."""
