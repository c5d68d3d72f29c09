"""The referee: rules of Rummy 101, Tile Rummy, My Rummy, Gin Rummy and Carousel rummy.

Pure standard library. See ``../shared/RULES.md`` for the rule book and ``../shared/JUDGE.md``
for the JSON Lines judge (``python -m rules judge``).
"""
