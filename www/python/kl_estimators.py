import numpy as np


def kl_estimators(log_probs, ref_log_probs, mask):
    """Оценки KL(π_θ ‖ π_ref) по токенам, выбранным π_θ: d = log π_θ − log π_ref,
    k1 = d, k2 = d²/2, k3 = exp(−d) − 1 + d; ровно 0 вне маски; и средние по маске.
    """
    m = np.asarray(mask, dtype=float)
    lp = np.asarray(log_probs, dtype=float)
    ref = np.asarray(ref_log_probs, dtype=float)
    if not (m.shape == lp.shape == ref.shape) or np.any((m != 0) & (m != 1)):
        raise ValueError("log-probs and a 0/1 mask of one shape are required")
    on = m == 1
    d = np.where(on, lp - ref, 0.0)  # вне маски — мусор: в exp его нельзя
    k1 = d
    k2 = np.where(on, d**2 / 2, 0.0)
    k3 = np.where(on, np.exp(-d) - 1 + d, 0.0)
    count = max(m.sum(), 1.0)
    return {
        "k1": k1, "k2": k2, "k3": k3,
        "k1_mean": k1.sum() / count,
        "k2_mean": k2.sum() / count,
        "k3_mean": k3.sum() / count,
    }
