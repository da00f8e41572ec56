import torch


def surrogate_loss(logits, actions, weights):
    """Суррогатная функция потерь REINFORCE: −(1/N)·Σ sg[f(X_i)]·log π(a_i).

    logits [N, K] — выход сети (с графом вычислений), actions [N] — выбранные
    действия, weights [N] — f(X_i) или G_t: множитель, через который градиент
    идти не должен.
    """
    log_probs = torch.log_softmax(logits, dim=-1)
    chosen = log_probs.gather(-1, actions[:, None]).squeeze(-1)  # log π(a_i)
    # .detach() — это sg[·] формулы: вес — число, а не функция от θ.
    return -(weights.detach() * chosen).mean()
