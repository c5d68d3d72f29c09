"""A round's entry: the screen, each variant's form, the breakdown of a round's points."""
