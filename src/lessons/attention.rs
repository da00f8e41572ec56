//! Lesson 8's attention figure: the transformer policy answers one prompt of the copy task,
//! token by token through its KV cache, and each block's heads show how the query of every
//! answer step weighed the positions before it. The network is the `transformer` profile's
//! before training (its first course seed), or one the reader trained in the panel (its
//! policy file). What the figure says in words is computed from the weights: how much of each
//! head's attention went to the prompt token the answer needs (the symbol to repeat), against
//! what uniform attention over the same positions would give.

use super::Figure;
use crate::error::{Error, Result, Rule};
use crate::math;
use crate::nn::{Scalar, SequencePolicy, Transformer};
use crate::plots::attention::{Data, HeadMap};
use crate::rng::{self, Rng};
use crate::text::{num, Description, Table};
use crate::train::sequence::policy_file::{AnyTransformer, PolicyFile};
use crate::train::sequence::task::EOS;
use crate::train::sequence::{Prompt, SequenceConfig, SequenceProfile, SequenceRun, TaskKind};
use crate::train::settings::{Profile, Settings};
use serde::Serialize;

/// The examples the figure's slider offers per level.
pub const SAMPLES: u64 = 20;

/// What the page shows beside the figure.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AttentionNumbers {
    /// Which network answered, in words.
    pub network: String,
    /// The prompt and the sampled answer, as text.
    pub prompt: String,
    pub answer: String,
    /// Whether the verifier accepts the answer.
    pub correct: bool,
    /// The head that looked most at the needed prompt token: its block and head (from 1) and
    /// its mean weight there; what uniform attention would give.
    pub best_layer: usize,
    pub best_head: usize,
    pub best_weight: f64,
    pub uniform_weight: f64,
}

/// One answer traced through the network.
struct Trace {
    /// Tokens at every key position (the prompt, then the answer but its last token).
    keys: Vec<i64>,
    /// The sampled answer.
    answer: Vec<i64>,
    /// Per answer step, per block: the weights `[heads, positions]`.
    rows: Vec<Vec<Vec<f64>>>,
}

/// Reads `prompt`, then samples an answer from `rng`, keeping every step's attention weights.
fn trace<S: Scalar>(
    net: &Transformer<S>,
    task: TaskKind,
    prompt: &Prompt,
    max_len: usize,
    rng: &mut Rng,
) -> Result<Trace> {
    let mut cache = net.initial_state();
    let mut log_probs = vec![0.0; net.outputs()];
    let mut weights = Vec::new();
    let (mut keys, mut answer, mut rows) = (Vec::new(), Vec::new(), Vec::new());
    let mut probs = vec![0.0; net.outputs()];
    let mut read = |token: i64, log_probs: &mut Vec<f64>, weights: &mut Vec<Vec<f64>>| {
        let id = usize::try_from(token)
            .map_err(|_| Error::range("token", Rule::at_least(0.0), token))?;
        keys.push(token);
        net.step_traced(id, &mut cache, log_probs, Some(weights))
    };
    for &token in &prompt.tokens {
        read(token, &mut log_probs, &mut weights)?;
    }
    while answer.len() < max_len {
        rows.push(weights.clone());
        probs
            .iter_mut()
            .zip(&log_probs)
            .for_each(|(p, lp)| *p = math::exp(*lp));
        let token = task.action_token(rng::categorical(rng, &probs));
        answer.push(token);
        if token == EOS || answer.len() == max_len {
            break;
        }
        read(token, &mut log_probs, &mut weights)?;
    }
    Ok(Trace { keys, answer, rows })
}

/// The network the figure draws and its description.
type Network = (SequenceConfig, AnyTransformer, String);

thread_local! {
    /// The last policy file read and its network: a slider's redraw does not parse it again.
    static LAST: std::cell::RefCell<Option<(String, Network)>> = const { std::cell::RefCell::new(None) };
}

/// The network the figure draws and its description: a policy file's (the last one read is
/// kept), or the profile's first seed's before training.
fn network(policy: Option<&str>) -> Result<Network> {
    if let Some(text) = policy {
        if let Some(kept) = LAST.with(|l| {
            l.borrow()
                .as_ref()
                .filter(|(t, _)| t == text)
                .map(|(_, n)| n.clone())
        }) {
            return Ok(kept);
        }
        let network = read_file(text)?;
        LAST.with(|l| *l.borrow_mut() = Some((text.to_string(), network.clone())));
        return Ok(network);
    }
    untrained()
}

fn read_file(text: &str) -> Result<Network> {
    {
        let (file, config, net) = PolicyFile::parse(text)?;
        let words = format!(
            "сеть, обученная в тренажёре (начальное значение {}, {})",
            file.seed,
            crate::text::count(
                file.iteration as f64,
                0,
                ["итерация", "итерации", "итераций"]
            )
        );
        Ok((config, net, words))
    }
}

fn untrained() -> Result<Network> {
    let profile = SequenceProfile::Transformer;
    let config = SequenceConfig::for_profile(profile);
    let seed = profile.seeds()[0];
    let words = format!("сеть до обучения (профиль transformer, начальное значение {seed})");
    let net = match config.precision {
        crate::nn::Precision::F32 => AnyTransformer::F32(
            SequenceRun::<Transformer<f32>>::new(config.clone(), seed)?
                .policy()
                .clone(),
        ),
        crate::nn::Precision::F64 => AnyTransformer::F64(
            SequenceRun::<Transformer<f64>>::new(config.clone(), seed)?
                .policy()
                .clone(),
        ),
    };
    Ok((config, net, words))
}

/// The prompt position an answer step needs: on the copy task the symbol it repeats (none
/// for `<eos>`), on lesson 8's task the prompt's `q` token.
fn needed(task: TaskKind, level: usize, step: usize) -> Option<usize> {
    match task {
        TaskKind::Copy => (step < level).then_some(1 + step),
        TaskKind::ThreePrompts => Some(1),
        // A digit of a sum needs two operand digits and the carry: no one position.
        TaskKind::Addition => None,
    }
}

/// The figure for the copy prompt of `level` symbols (1–4; lesson 8's task: its prompt
/// `level`) drawn by example `sample`'s random stream, answered by the network of `policy`
/// (a policy file's text) or by the untrained one.
pub fn figure(
    level: usize,
    sample: u64,
    policy: Option<&str>,
) -> Result<Figure<AttentionNumbers, Data>> {
    if !(1..=crate::train::sequence::copy_task::MAX_LEVEL).contains(&level) {
        let rule = Rule::Interval {
            min: Some(crate::error::Bound::closed(1.0)),
            max: Some(crate::error::Bound::closed(4.0)),
        };
        return Err(Error::range("level", rule, level));
    }
    if !(1..=SAMPLES).contains(&sample) {
        let rule = Rule::Interval {
            min: Some(crate::error::Bound::closed(1.0)),
            max: Some(crate::error::Bound::closed(SAMPLES as f64)),
        };
        return Err(Error::range("sample", rule, sample));
    }
    let (config, net, network_words) = network(policy)?;
    let task = config.task;
    let level = level.min(task.levels());
    let mut rng = rng::seeded(sample * 1000 + level as u64);
    let prompt = task.eval_prompt(level - 1, &mut rng);
    let max_len = config.max_response_len;
    let (trace, shape) = match &net {
        AnyTransformer::F32(n) => (trace(n, task, &prompt, max_len, &mut rng)?, n.shape()),
        AnyTransformer::F64(n) => (trace(n, task, &prompt, max_len, &mut rng)?, n.shape()),
    };
    let prompt_len = prompt.tokens.len();
    let answer_words = task.decode(&trace.answer);
    let verdict = task.verify(&prompt, &trace.answer);
    // Every head's weights, its means by what it looked at.
    let mut heads = Vec::new();
    let mut table = Table::new(&[
        "блок",
        "голова",
        "на нужный токен запроса",
        "на <bos>",
        "на остальной запрос",
        "на уже написанный ответ",
    ]);
    let (mut best, mut uniform_sum, mut uniform_count) = ((0, 0, -1.0_f64), 0.0_f64, 0.0_f64);
    for layer in 0..shape.layers {
        for head in 0..shape.heads {
            let mut weights = Vec::new();
            let (mut on_needed, mut needed_rows) = (0.0_f64, 0.0_f64);
            let (mut on_bos, mut on_prompt, mut on_answer) = (0.0, 0.0, 0.0);
            for (step, row) in trace.rows.iter().enumerate() {
                let n = row[layer].len() / shape.heads;
                let w = row[layer][head * n..(head + 1) * n].to_vec();
                if let Some(k) = needed(task, level, step) {
                    on_needed += w[k];
                    needed_rows += 1.0;
                    if layer == 0 && head == 0 {
                        uniform_sum += 1.0 / n as f64;
                        uniform_count += 1.0;
                    }
                }
                on_bos += w[0];
                let target = needed(task, level, step);
                on_prompt += (1..prompt_len.min(n))
                    .filter(|&k| Some(k) != target)
                    .map(|k| w[k])
                    .sum::<f64>();
                on_answer += w[prompt_len.min(n)..].iter().sum::<f64>();
                weights.push(w);
            }
            let rows = trace.rows.len().max(1) as f64;
            let mean_needed = on_needed / needed_rows.max(1.0);
            if needed_rows > 0.0 && mean_needed > best.2 {
                best = (layer, head, mean_needed);
            }
            let cell = |x: f64| num(x, 2);
            table = table.row([
                (layer + 1).to_string(),
                (head + 1).to_string(),
                if needed_rows > 0.0 {
                    cell(mean_needed)
                } else {
                    "—".into()
                },
                cell(on_bos / rows),
                cell(on_prompt / rows),
                cell(on_answer / rows),
            ]);
            heads.push(HeadMap {
                title: format!("блок {}, голова {}", layer + 1, head + 1),
                weights,
            });
        }
    }
    let uniform = uniform_sum / uniform_count.max(1.0);
    let what = match task {
        TaskKind::Copy => "символ запроса, который нужно повторить",
        TaskKind::ThreePrompts => "токен запроса q",
        TaskKind::Addition => "цифры слагаемых",
    };
    let verdict_words = if verdict.correct {
        "верный"
    } else {
        "неверный"
    };
    let focus = if best.2 >= 0.5 {
        format!(
            "Голова {} блока {} смотрит на {what}: в среднем {} веса на каждом шаге ответа; равномерное внимание по тем же позициям дало бы {}.",
            best.1 + 1,
            best.0 + 1,
            num(best.2, 2),
            num(uniform, 2)
        )
    } else {
        format!(
            "Ни одна голова не смотрит именно на {what}: больше всех — голова {} блока {}, в среднем {} веса; равномерное внимание дало бы {}.",
            best.1 + 1,
            best.0 + 1,
            num(best.2.max(0.0), 2),
            num(uniform, 2)
        )
    };
    let text = format!(
        "{}: на запрос «{}» ответ «{}» — {verdict_words}. {focus}",
        capitalise(&network_words),
        task.decode(&prompt.tokens[1..]),
        answer_words
    );
    let keys: Vec<String> = trace.keys.iter().map(|&t| task.decode(&[t])).collect();
    let queries: Vec<String> = trace.answer.iter().map(|&t| task.decode(&[t])).collect();
    let needed_keys = (0..trace.rows.len())
        .map(|s| needed(task, level, s))
        .collect();
    Ok(Figure {
        numbers: AttentionNumbers {
            network: network_words,
            prompt: task.decode(&prompt.tokens[1..]),
            answer: answer_words,
            correct: verdict.correct,
            best_layer: best.0 + 1,
            best_head: best.1 + 1,
            best_weight: best.2.max(0.0),
            uniform_weight: uniform,
        },
        data: Data {
            keys,
            queries,
            prompt_len,
            needed: needed_keys,
            heads,
            columns: shape.heads,
        },
        description: Description { text, table },
    })
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::sequence::SequenceTrainer;

    #[test]
    fn the_untrained_network_answers_and_every_row_of_weights_sums_to_one() {
        let f = figure(3, 1, None).unwrap();
        crate::text::check_shape(&f.description);
        assert_eq!(f.data.heads.len(), 2 * 4, "2 blocks × 4 heads");
        assert_eq!(f.data.queries.len(), f.data.heads[0].weights.len());
        for head in &f.data.heads {
            for (step, row) in head.weights.iter().enumerate() {
                assert_eq!(
                    row.len(),
                    f.data.prompt_len + step,
                    "causal: the keys read so far"
                );
                let sum: f64 = row.iter().sum();
                assert!((sum - 1.0).abs() < 1e-5, "{sum}");
            }
        }
        assert!(
            f.description.text.starts_with("Сеть до обучения"),
            "{}",
            f.description.text
        );
        assert!(f.numbers.uniform_weight > 0.0 && f.numbers.uniform_weight < 0.5);
        assert!(figure(5, 1, None).is_err() && figure(1, 0, None).is_err());
        // Drawn wide and on a phone: every head's title and the key are there.
        for width in [900, 360] {
            let svg = crate::plots::to_svg(width, 520, |a| {
                crate::plots::attention::draw(a, &f.data, &crate::plots::Theme::default())
            })
            .unwrap();
            assert!(svg.contains("блок 2, голова 4") && svg.contains("вес внимания"));
        }
        assert!(figure(1, 1, Some("{}")).is_err());
    }

    #[test]
    fn a_trained_networks_file_is_drawn_and_its_attention_moves() {
        let config = SequenceConfig {
            iterations: 2,
            eval_samples_per_prompt: 4,
            ..SequenceConfig::for_profile(SequenceProfile::Transformer)
        };
        let mut trainer = SequenceTrainer::new(config, 1).unwrap();
        trainer.step().unwrap();
        trainer.step().unwrap();
        let file = trainer.policy_file().unwrap().unwrap();
        let f = figure(2, 3, Some(&file)).unwrap();
        assert!(
            f.numbers.network.contains("2 итерации"),
            "{}",
            f.numbers.network
        );
        let before = figure(2, 3, None).unwrap();
        assert_ne!(f.data.heads[0].weights, before.data.heads[0].weights);
        // The file holds the network to the bit: parsed back, it writes the same file.
        let (_, config, net) = PolicyFile::parse(&file).unwrap();
        let AnyTransformer::F32(net) = net else {
            panic!("the profile trains in f32")
        };
        let again = crate::train::sequence::policy_file::to_json(&config, 1, 2, &net).unwrap();
        assert_eq!(again, file);
    }
}
