import numpy as np


def surrogate_grad(logits, actions, weights):
    """Градиент той же функции потерь по логитам, без автоматического
    дифференцирования: строка i равна −(1/N)·f(X_i)·(onehot(a_i) − π_i).

    logits [N, K], actions [N], weights [N] → массив [N, K].
    """
    z = np.asarray(logits, dtype=float)
    a = np.asarray(actions, dtype=int)
    f = np.asarray(weights, dtype=float)
    p = np.exp(z - z.max(axis=-1, keepdims=True))  # устойчивый softmax
    p /= p.sum(axis=-1, keepdims=True)
    onehot = np.zeros_like(p)
    onehot[np.arange(len(a)), a] = 1.0
    return -(f[:, None] * (onehot - p)) / len(a)
