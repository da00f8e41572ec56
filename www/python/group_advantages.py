import numpy as np


def group_advantages(rewards, estimator, eps=1e-8):
    """Преимущества одной группы из G ответов пятью способами семейства GRPO.

    none: r_i; mean: r_i − r̄ (Dr. GRPO); rloo: r_i − среднее остальных (G ≥ 2);
    mean_std_population / mean_std_sample: (r_i − r̄)/std с ddof 0 / 1 (GRPO),
    нули, если std < eps.
    """
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 1 or len(r) == 0 or not np.all(np.isfinite(r)):
        raise ValueError("rewards must be a non-empty finite vector")
    if not (np.isfinite(eps) and eps >= 0):
        raise ValueError("eps must be finite and ≥ 0")
    g = len(r)
    if estimator == "none":
        return r.copy()
    if estimator == "mean":
        return r - r.mean()
    if estimator == "rloo":
        if g < 2:
            raise ValueError("rloo needs at least two rewards")
        return r - (r.sum() - r) / (g - 1)
    ddof = {"mean_std_population": 0, "mean_std_sample": 1}.get(estimator)
    if ddof is None:
        raise ValueError(f"unknown estimator: {estimator}")
    if g - ddof < 1:
        raise ValueError("mean_std_sample needs at least two rewards")
    std = r.std(ddof=ddof)
    if std < eps:
        return np.zeros_like(r)  # все ответы одинаковы: группа ничему не учит
    return (r - r.mean()) / std
