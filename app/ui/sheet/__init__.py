"""One game's score sheet: the totals chart, the game's end, exporting and sharing the result."""
