"""The home screen and what opens from it: the games list, a new game and its options, the players,
history, settings, the rule book."""
