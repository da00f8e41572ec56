import numpy as np


def reward_to_go(rewards, gamma):
    """Накопленная награда G[t] = r[t] + γ·G[t+1] для всех t одним обратным проходом.

    rewards [T], 0 ≤ gamma ≤ 1 → returns [T]; иначе ValueError.
    """
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 1:
        raise ValueError("rewards must be one-dimensional")
    if not 0.0 <= gamma <= 1.0:
        raise ValueError("gamma must lie in [0, 1]")
    returns = np.empty_like(r)
    running = 0.0
    for t in range(len(r) - 1, -1, -1):
        running = r[t] + gamma * running
        returns[t] = running
    return returns
