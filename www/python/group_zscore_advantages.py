import numpy as np


def group_zscore_advantages(rewards, eps=1e-8):
    """A_i = (R_i − R̄)/σ, σ — «популяционное» (деление на G); нули, если σ < eps."""
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 1 or len(r) == 0:
        raise ValueError("rewards must be a non-empty vector")
    centered = r - r.mean()
    sigma = np.sqrt(np.mean(centered**2))
    if sigma < eps:
        return np.zeros_like(centered)  # все ответы одинаковы: сигнала нет
    return centered / sigma
