import numpy as np


def ppo_diagnostics(new_log_prob, old_log_prob, advantage, clip_epsilon=0.2):
    """Диагностики пакета PPO (ppo_clipped_terms — выше). Активное клиппирование —
    там, где клиппирование изменило минимум, а не где r просто вне коридора."""
    log_ratio = (np.asarray(new_log_prob, dtype=float)
                 - np.asarray(old_log_prob, dtype=float))
    if log_ratio.size == 0:
        raise ValueError("an empty batch has no diagnostics")
    ratio = np.exp(log_ratio)
    unclipped, _, pessimistic = ppo_clipped_terms(ratio, advantage, clip_epsilon)
    outside = (ratio < 1 - clip_epsilon) | (ratio > 1 + clip_epsilon)
    return {
        "ratio_outside_fraction": float(np.mean(outside)),
        "active_clip_fraction": float(np.mean(pessimistic < unclipped - 1e-15)),
        "approx_kl_nonnegative": float(np.mean((ratio - 1) - log_ratio)),
        "mean_log_ratio": float(np.mean(log_ratio)),
    }
