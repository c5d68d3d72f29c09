"""The mark classifier: a small two-layer perceptron in numpy, stored in ``marks.npz``.

Classes (:data:`CLASSES`): the digits ``0``–``9``, ``JK`` (a joker's face) and ``X`` (anything
else: a logo, a suit sign, a letter, wood grain, a digit upside down). ``app/vision/train.py``
writes the model; this module only loads it and predicts.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Final

import numpy as np

CLASSES: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "JK", "X")
MODEL_PATH: Final = Path(__file__).with_name("marks.npz")

_lock = threading.Lock()
_model: dict[str, np.ndarray] | None = None


def load(path: Path = MODEL_PATH) -> dict[str, np.ndarray]:
    """The model's arrays (mean, scale, w1, b1, w2, b2), loaded once and shared."""
    global _model
    with _lock:
        if _model is None or path != MODEL_PATH:
            with np.load(path) as z:
                m = {k: z[k].astype(np.float32) for k in ("mean", "scale", "w1", "b1", "w2", "b2")}
            if path != MODEL_PATH:
                return m
            _model = m
        return _model


def forward(m: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hidden activations, class probabilities) for rows of features ``x``."""
    z = (x - m["mean"]) * m["scale"]
    h = np.maximum(z @ m["w1"] + m["b1"], 0)
    logits = h @ m["w2"] + m["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return h, e / e.sum(axis=1, keepdims=True)


def predict(x: np.ndarray) -> np.ndarray:
    """Class probabilities (rows × len(CLASSES)) for feature rows ``x``."""
    if len(x) == 0:
        return np.zeros((0, len(CLASSES)), np.float32)
    return forward(load(), x.astype(np.float32))[1]
