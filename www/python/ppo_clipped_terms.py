import numpy as np


def ppo_clipped_terms(ratio, advantage, clip_epsilon=0.2):
    """Члены цели PPO: r·Â, clip(r, 1 − ε, 1 + ε)·Â и их пессимистический минимум.

    ratio [N] (все > 0), advantage [N] → (unclipped, clipped, pessimistic), каждый [N].
    """
    r = np.asarray(ratio, dtype=float)
    a = np.asarray(advantage, dtype=float)
    if r.shape != a.shape or np.any(r <= 0):
        raise ValueError("positive aligned ratios are required")
    unclipped = r * a
    clipped = np.clip(r, 1 - clip_epsilon, 1 + clip_epsilon) * a
    return unclipped, clipped, np.minimum(unclipped, clipped)
