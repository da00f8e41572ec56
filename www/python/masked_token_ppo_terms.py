import numpy as np


def masked_token_ppo_terms(new_log_probs, old_log_probs, advantages, mask,
                           clip_epsilon=0.2):
    """Отношения и члены PPO по токенам: [B, T] каждый, ровно 0 (отношение — 1) вне маски.

    Маска применяется до exp: вне ответа могут стоять любые числа, хоть ±1e4.
    """
    new = np.asarray(new_log_probs, dtype=float)
    old = np.asarray(old_log_probs, dtype=float)
    m = np.asarray(mask, dtype=float)
    a = np.asarray(advantages, dtype=float)
    if (new.ndim != 2 or not (new.shape == old.shape == m.shape)
            or a.shape != new.shape[:1]):
        raise ValueError("log-probs and mask must be [B, T], advantages [B]")
    if np.any((m != 0) & (m != 1)):
        raise ValueError("mask must hold only 0 and 1")
    on = m == 1
    ratio = np.exp(np.where(on, new - old, 0.0))
    a = a[:, None]  # одно преимущество на ответ
    unclipped = np.where(on, ratio * a, 0.0)
    clipped_ratio = np.clip(ratio, 1 - clip_epsilon, 1 + clip_epsilon)
    clipped = np.where(on, clipped_ratio * a, 0.0)
    return ratio, unclipped, clipped, np.minimum(unclipped, clipped)
