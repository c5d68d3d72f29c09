"""At the table: sharing a game with other phones, the shared games, the table display, the turn
timer."""
