// @ts-check
// The live trainers of the lessons: one panel per trainer of wasm's registry (trainer_list)
// found on the page, and the link that starts a run or fills a form. Each seed trains in a Web
// Worker of a small pool; every fact a panel shows comes from the trainer's schema in wasm, and
// settings are checked by wasm before any worker starts.
import { setupPrepared } from './prepared.js';
import { ONE_FILE, pageLink, pageParams, parseConfig } from './links.js';
import { el, messageOf, nextTask } from './dom.js';
import { MAX_CONFIGS, TrainerPanel } from './panel.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('./types.js').Schema} Schema */
/**
 * One trainer of wasm's registry (trainer_list), in the book's order.
 * @typedef {import('../pkg/pgbook.js').Listed} ListedTrainer
 */

/** A message at the top of the page, for links that name no trainer of this page. @param {string} text */
function notice(text) {
  const box = el('div', { class: 'figure-error link-error', role: 'alert', text });
  (document.querySelector('main') ?? document.body).prepend(box);
}

/**
 * The link's parameters: the query, and any written after '#' (`#trainer-ppo?seeds=…` or
 * `#run=ppo&…`), the latter winning.
 */
function linkParams() {
  const q = pageParams();
  if (ONE_FILE) return q; // the fragment is the page's address and state (links.js)
  const hash = location.hash.slice(1);
  const tail = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : hash.includes('=') ? hash : '';
  for (const [k, v] of new URLSearchParams(tail)) q.set(k, v);
  return q;
}

/**
 * Starts a run from the URL (?run=ppo&profile=smoke&seeds=11,37&gamma=0.99 or
 * ?run=sequence&profile=smoke&seed=5&reduction=token_mean): a teacher sends one link. Any
 * setting of the trainer's schema may be overridden by name; wasm checks them all. Without
 * `run`, the parameters only fill the form (the panel keeps what the reader types there, so
 * Back brings it back).
 * @param {Wasm} wasm
 * @returns {Promise<void>}
 */
export async function setupTrainers(wasm) {
  /** @type {Record<string, TrainerPanel>} */
  const panels = {};
  /** @type {ListedTrainer[]} */
  const trainers = wasm.trainer_list();
  for (const t of trainers) {
    const root = /** @type {HTMLElement | null} */ (document.querySelector(`#trainer-${t.name}`));
    if (!root) continue;
    // A panel builds its whole settings form (10–30 ms here, four times that on a phone): one
    // task each, and the prepared comparisons after them.
    await nextTask();
    panels[t.name] = new TrainerPanel(root, wasm, t.panel === 'sequence' ? 'sequence' : t.name, t.panel);
  }
  window.pgbookPanels = panels;
  await setupPrepared(wasm, panels);
  // Leaving a page while it trains is a choice.
  window.addEventListener('beforeunload', (e) => {
    if (Object.values(panels).some((p) => p.status === 'running' || p.status === 'paused')) {
      e.preventDefault();
      e.returnValue = '';
    }
  });
  const q = linkParams();
  const name = q.get('run') ?? q.get('form');
  const p = name !== null && Object.hasOwn(panels, name) ? panels[name] : null;
  if (name !== null && !p) {
    // A trainer of another page (wasm knows where each panel is): forward the link there.
    /** @type {Schema | null} */
    let other = null;
    try {
      other = wasm.trainer_schema(name);
    } catch {
      /* not a trainer */
    }
    if (other) {
      location.replace(pageLink(other.page.file, q, `trainer-${name}`));
    } else {
      const known = trainers.map((t) => `${t.name} (урок ${Number(t.page.replace(/\D/g, ''))})`).join(', ');
      notice(`Ссылка не распознана: неизвестный запуск «${name.slice(0, 24)}». Есть ${known}.`);
    }
    return;
  }
  if (!p) return;
  const config = p.config;
  const fields = new Set(p.schema.fields.map((f) => f.name));
  const own = new Set(['run', 'form', 'profile', 'cfg', config.seedParam, ...fields]);
  const foreign = [...q.keys()].filter((k) => !own.has(k));
  if (foreign.length) {
    p.showError(
      `Ссылка не принята: параметр «${foreign[0].slice(0, 24)}» не относится к этому обучению (здесь: profile, ${config.seedParam} и настройки из таблицы параметров).`,
    );
    return;
  }
  config.applyParams(q);
  const cfgs = q.getAll('cfg');
  if (cfgs.length) {
    // A comparison: each `cfg` a profile and its overrides; wasm checks them all at the start.
    const configs = cfgs.map(parseConfig);
    const bad = configs.flatMap((c) => c.set.map(([k]) => k)).find((k) => !fields.has(k));
    const mixed = [...q.keys()].find((k) => k === 'profile' || fields.has(k));
    const problem =
      configs.length > MAX_CONFIGS
        ? `в сравнении не больше ${MAX_CONFIGS} конфигураций, а в ссылке их ${configs.length}`
        : bad !== undefined
          ? `настройки «${bad.slice(0, 24)}» у этого обучения нет`
          : mixed !== undefined
            ? `параметр «${mixed.slice(0, 24)}» задаётся внутри каждой конфигурации cfg, не отдельно`
            : '';
    if (problem) {
      p.showError(`Ссылка не принята: ${problem}.`);
      return;
    }
    try {
      configs.forEach((c) => wasm.check_run(p.kind, c.profile, c.set, config.seedInput.value));
    } catch (e) {
      p.showError(`Настройки не приняты: ${messageOf(e)}`);
      return;
    }
    config.replace(configs);
    if (q.has('run')) {
      p.root.scrollIntoView();
      p.start();
    }
    return;
  }
  // A <select> ignores values it does not offer: wasm says what is wrong with the link.
  const profile = q.get('profile');
  if (profile !== null) {
    config.profile.value = profile;
    if (config.profile.value !== profile) {
      try {
        wasm.check_run(p.kind, profile, [], '1');
      } catch (e) {
        p.showError(`Настройки не приняты: ${messageOf(e)}`);
      }
      return;
    }
    config.form.reset(profile);
  }
  config.form.apply([...q.entries()].filter(([k]) => fields.has(k)));
  config.preview();
  config.sync();
  config.render();
  if (!q.has('run')) {
    // A form link starts nothing, but a value it cannot take is said at once.
    try {
      p.jobs();
    } catch (e) {
      p.showError(`Настройки не приняты: ${messageOf(e)}`);
    }
  }
  if (q.has('run')) {
    p.root.scrollIntoView();
    p.start();
  }
}
