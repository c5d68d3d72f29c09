"""Reading rummy tiles from a photo, on the host's CPU (OpenCV and numpy; no Flet here).

``read_photo(data) -> Reading`` finds the tiles by their printed numbers, reads colour and
number (a small classifier trained here from synthetic renders: ``app/vision/train.py``) and
groups them into rows as they lie. ``python -m app.vision PHOTO [--json]`` is its command line.
"""

from app.vision.imageio import VisionError
from app.vision.reader import LOW_CONFIDENCE, Reading, TileRead, read_photo

__all__ = ["LOW_CONFIDENCE", "Reading", "TileRead", "VisionError", "read_photo"]
