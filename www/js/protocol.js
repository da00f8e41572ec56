// @ts-check
// The messages between a panel's pool and a trainer's Web Worker, one discriminated union per
// direction: tsc checks both sides (a misspelt type or field does not compile). The report
// itself crosses as the CLI's JSON line (`line`), read by wasm's RunBoard, never by key here;
// what a step adds for the panel (`extra`) and where a running step is (`progress`) are the
// Rust side's serde types (src/web/panel.rs, src/web/worker.rs, src/train/mod.rs's Stage).

/**
 * Page → worker.
 * @typedef {{ type: 'start', kind: string, request: { profile: string, set: [string, string][] }, seed: number, paused?: boolean }
 *   | { type: 'pause' } | { type: 'resume' } | { type: 'stop' } | { type: 'fail' }
 *   | { type: 'bench', which?: 'ppo' | 'transformer', updates?: number, repeats?: number, precision?: string }
 *   | { type: 'speed' }
 *   | { type: 'class', kind: string, request: { profile: string, set: [string, string][] }, seed: number }
 *   | { type: 'class-verify', kind: string, request: { profile: string, set: [string, string][] }, code: string }} ToWorker
 */

/**
 * What a CartPole step adds (panel.rs's CartPoleExtra): after an evaluation, the greedy
 * episode to animate (x, ẋ, θ, θ̇ per frame, flat) and the update it followed.
 * @typedef {{ panel: 'cartpole', episode: number[] | null, update: number | null }} CartPoleExtra
 */
/**
 * One showcase prompt's greedy answer (panel.rs's GreedyRow).
 * @typedef {{ prompt: string, answer: string, correct_answer: string, reward: number, correct: boolean }} GreedyRow
 */
/**
 * One row of the first batch (panel.rs's FirstBatchView).
 * @typedef {{ prompt: string, sequence: string, reward: number, advantage: number, mask: number[] }} FirstBatchRow
 */
/**
 * What a sequence iteration adds (panel.rs's SequenceExtra): the greedy answers; after the
 * first iteration, the first batch.
 * @typedef {{ panel: 'sequence', greedy: GreedyRow[], first_batch: FirstBatchRow[] | null }} SequenceExtra
 */
/** @typedef {CartPoleExtra | SequenceExtra} StepExtra */

/**
 * Where a running step is (src/train/mod.rs's Stage): collecting experience, an epoch's
 * minibatch (a full-batch step is minibatch 1 of 1), the critic's fit, the greedy evaluation,
 * the supervised stage before RL (the sequence trainer's SFT, inside its first iteration).
 * @typedef {{ stage: 'rollout', done: number, total: number }
 *   | { stage: 'minibatch', epoch: number, epochs: number, minibatch: number, minibatches: number }
 *   | { stage: 'critic', step: number, steps: number }
 *   | { stage: 'evaluation' }
 *   | { stage: 'pretrain', step: number, steps: number }} Stage
 */
/**
 * worker.rs's StepProgress: step `step` of `steps` (updates or iterations) is at `stage`, with
 * `fraction` of its planned work done.
 * @typedef {{ step: number, steps: number, fraction: number, stage: Stage }} StepProgress
 */

/**
 * Worker → page. `info` is what the untrained run says (totals, the first evaluation) and goes
 * back to wasm's RunBoard as it came. `progress` arrives while a step runs, at most four times
 * a second.
 * @typedef {{ type: 'ready' }
 *   | { type: 'started', info: unknown }
 *   | { type: 'progress', progress: StepProgress }
 *   | { type: 'update', line: string, extra: StepExtra }
 *   | { type: 'finished', line: string, policy?: string | null }
 *   | { type: 'paused' } | { type: 'stopped' }
 *   | { type: 'error', message: string } | { type: 'panic', message: string }
 *   | { type: 'bench', result: unknown } | { type: 'speed', speed: number }
 *   | { type: 'class', code: string } | { type: 'class-progress', done: number, total: number }
 *   | { type: 'class-verify', seed: number }} FromWorker
 */

export {};
