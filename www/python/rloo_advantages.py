import numpy as np


def rloo_advantages(rewards):
    """Преимущества RLOO одной группы: A_i = R_i − b_i = G/(G − 1)·(R_i − R̄)."""
    r = np.asarray(rewards, dtype=float)
    return r - leave_one_out_baselines(r)
