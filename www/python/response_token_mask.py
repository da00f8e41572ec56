import numpy as np


def response_token_mask(input_ids, prompt_lengths, pad_token_id, eos_token_id,
                        include_eos=True):
    """Маска [B, T − 1] меток-токенов ответа: столбец k — метка input_ids[b, k + 1].

    Метка входит, если она не в запросе (позиция ≥ prompt_lengths[b]), не PAD и
    стоит не после первого EOS ответа; сам EOS входит при include_eos.
    """
    ids = np.asarray(input_ids)
    lengths = np.asarray(prompt_lengths, dtype=int)
    if ids.ndim != 2 or lengths.shape != (ids.shape[0],):
        raise ValueError("input_ids must be [B, T] and prompt_lengths [B]")
    mask = np.zeros((ids.shape[0], ids.shape[1] - 1))
    for b in range(ids.shape[0]):
        active = True
        for pos in range(1, ids.shape[1]):
            token = int(ids[b, pos])
            # PAD проверяется раньше EOS (как в курсе):
            # при PAD == EOS конец ответа не виден.
            if pos < lengths[b] or token == pad_token_id or not active:
                continue
            if token != eos_token_id or include_eos:
                mask[b, pos - 1] = 1.0
            if token == eos_token_id:
                active = False
    return mask
