"""The mark classifier: two small two-layer perceptrons in numpy, stored in ``marks.npz``.

Classes (:data:`CLASSES`): the digits ``0``–``9``, ``JK`` (a joker's face) and ``X`` (anything
else: a logo, a suit sign, a letter, wood grain, a digit upside down). ``app/vision/train.py``
writes the model: one perceptron learnt from sharp renders, one from the same renders and
degraded copies of some (out of focus, shaken, low resolution, hard JPEG), each stored under
its prefix (:data:`NETS`). A mark's class probabilities are the mean of the two: the sharp
one keeps a small sharp 5 a 5 where the other sees a blurred 6, the other reads an out of
focus tile the sharp one takes for no digit. This module only loads the model and predicts.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Final

import numpy as np

CLASSES: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "JK", "X")
MODEL_PATH: Final = Path(__file__).with_name("marks.npz")
KEYS: Final = ("mean", "scale", "w1", "b1", "w2", "b2")
NETS: Final = ("sharp_", "soft_")
"""The key prefixes of the perceptrons in the model file."""

_lock = threading.Lock()
_model: list[dict[str, np.ndarray]] | None = None


def load(path: Path = MODEL_PATH) -> list[dict[str, np.ndarray]]:
    """The model's perceptrons (each: mean, scale, w1, b1, w2, b2), loaded once and shared;
    a file of one perceptron stored without prefixes holds just that one."""
    global _model
    with _lock:
        if _model is None or path != MODEL_PATH:
            with np.load(path) as z:
                prefixes = [p for p in NETS if p + KEYS[0] in z.files] or [""]
                nets = [{k: z[p + k].astype(np.float32) for k in KEYS} for p in prefixes]
            if path != MODEL_PATH:
                return nets
            _model = nets
        return _model


def forward(m: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hidden activations, class probabilities) of one perceptron for rows of features."""
    z = (x - m["mean"]) * m["scale"]
    h = np.maximum(z @ m["w1"] + m["b1"], 0)
    logits = h @ m["w2"] + m["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return h, e / e.sum(axis=1, keepdims=True)


def predict_with(nets: list[dict[str, np.ndarray]], x: np.ndarray) -> np.ndarray:
    """The mean class probabilities of ``nets`` (rows × len(CLASSES)) for feature rows."""
    if len(x) == 0 or not nets:
        return np.zeros((len(x), len(CLASSES)), np.float32)
    x = x.astype(np.float32)
    p = forward(nets[0], x)[1]
    for m in nets[1:]:
        p = p + forward(m, x)[1]
    return np.asarray(p / len(nets), np.float32)


def predict(x: np.ndarray) -> np.ndarray:
    """Class probabilities (rows × len(CLASSES)) for feature rows ``x``."""
    return predict_with(load(), x)
