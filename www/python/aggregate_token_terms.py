import numpy as np


def aggregate_token_terms(terms, mask, reduction, max_length=None):
    """Редукция членов [B, T] по маске: s_b — сумма строки, n_b — число токенов ответа.

    token_mean = Σs_b / max(Σn_b, 1); sequence_mean = mean_b s_b / max(n_b, 1);
    sequence_sum_mean = mean_b s_b; constant_length = Σs_b / (B·max_length).
    """
    m = np.asarray(mask, dtype=float)
    t = np.asarray(terms, dtype=float)
    if m.shape != t.shape or np.any((m != 0) & (m != 1)):
        raise ValueError("mask must be a 0/1 array shaped like terms")
    s = np.where(m == 1, t, 0.0).sum(axis=1)
    n = m.sum(axis=1)
    if reduction == "token_mean":
        return float(s.sum() / max(n.sum(), 1.0))
    if reduction == "sequence_mean":
        return float(np.mean(s / np.maximum(n, 1.0))) if len(s) else 0.0
    if reduction == "sequence_sum_mean":
        return float(np.mean(s)) if len(s) else 0.0
    if reduction == "constant_length":
        if max_length is None or max_length < 1 or np.any(n > max_length):
            raise ValueError("constant_length needs max_length ≥ every n_b ≥ 1")
        return float(s.sum() / (len(s) * max_length)) if len(s) else 0.0
    raise ValueError(f"unknown reduction: {reduction}")
