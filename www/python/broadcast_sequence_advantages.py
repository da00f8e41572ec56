import numpy as np


def broadcast_sequence_advantages(sequence_advantages, token_mask):
    """Одно преимущество ответа — каждому его токену: [B] × маска [B, T] → [B, T]."""
    a = np.asarray(sequence_advantages, dtype=float)
    m = np.asarray(token_mask, dtype=float)
    if a.ndim != 1 or m.ndim != 2 or m.shape[0] != a.shape[0]:
        raise ValueError("advantages must be [B] and token_mask [B, T]")
    return a[:, None] * m
