import numpy as np


def leave_one_out_baselines(rewards):
    """Опорный уровень RLOO: b_i = (S − R_i)/(G − 1) — среднее остальных ответов группы.

    rewards [G], G ≥ 2 → baselines [G]; иначе ValueError.
    """
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 1 or len(r) < 2:
        raise ValueError("at least two rewards are required")
    return (r.sum() - r) / (len(r) - 1)
