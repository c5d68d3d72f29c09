"""Reading tiles from a photo: the review screen and the worker process that reads."""
