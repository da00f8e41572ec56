import numpy as np


def discounted_score_weights(rewards, gamma):
    """Веса γ^t·G_t градиента дисконтированной цели (reward_to_go — выше)."""
    g = reward_to_go(rewards, gamma)
    return gamma ** np.arange(len(g), dtype=float) * g
