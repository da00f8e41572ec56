import numpy as np


def gae_advantages(rewards, values, next_values, terminated, trace_cuts,
                   gamma, gae_lambda):
    """GAE с двумя масками: terminated решает, брать ли прогноз V(s[t+1]),
    trace_cuts — обрывать ли рекурсию (усечение, reset, граница буфера).

    Пять массивов [T] одной длины, gamma и gae_lambda в [0, 1] → advantages [T].
    """
    r = np.asarray(rewards, dtype=float)
    v = np.asarray(values, dtype=float)
    nv = np.asarray(next_values, dtype=float)
    term = np.asarray(terminated, dtype=bool)
    cuts = np.asarray(trace_cuts, dtype=bool)
    if r.ndim != 1 or not (r.shape == v.shape == nv.shape == term.shape
                           == cuts.shape):
        raise ValueError("all inputs must be aligned one-dimensional arrays")
    if not (0.0 <= gamma <= 1.0 and 0.0 <= gae_lambda <= 1.0):
        raise ValueError("gamma and gae_lambda must lie in [0, 1]")
    deltas = r + gamma * np.where(term, 0.0, nv) - v
    advantages = np.empty_like(deltas)
    running = 0.0
    for t in range(len(r) - 1, -1, -1):
        carry = 0.0 if cuts[t] else gamma * gae_lambda * running
        running = deltas[t] + carry
        advantages[t] = running
    return advantages
