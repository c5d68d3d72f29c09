"""What every screen is built of: the session object, the frame, buttons and chips, the tile/card
keyboard, pieces drawn, the names of variants and options."""
