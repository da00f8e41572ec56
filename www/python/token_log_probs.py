import numpy as np


def token_log_probs(logits, input_ids):
    """Причинный сдвиг: логиты позиции k предсказывают токен k + 1.

    logits [B, T, V], input_ids [B, T] → log π(input_ids[b, k+1]) формы [B, T − 1].
    """
    # Последняя позиция ничего не предсказывает, первый токен ничем не предсказан.
    z = np.asarray(logits, dtype=float)[:, :-1]
    labels = np.asarray(input_ids)[:, 1:]
    z = z - z.max(axis=-1, keepdims=True)
    log_softmax = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return np.take_along_axis(log_softmax, labels[..., None], axis=-1)[..., 0]
