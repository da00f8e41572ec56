// @ts-check
// What a trainer panel compares and how it goes into a link: the profile, the seeds and the
// settings form edit one of up to four configurations, Старт runs them all on the same seeds,
// and the link (or the address bar, while the reader types) carries them. panel.js puts this
// bar beside the run's life and the saved runs.
import { SettingsForm } from './settings-form.js';
import { classPageLink, configText, pageLink, setPageParams } from './links.js';
import { el, messageOf, profileSelect } from './dom.js';
import { LETTERS, MAX_CONFIGS } from './panel-shown.js';

/** Seats a class link made from a panel offers (the teacher changes the number on the contents page). */
const CLASS_SEATS = 30;

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('./types.js').Schema} Schema */
/** @typedef {import('./types.js').CheckedRun} CheckedRun */
/** @typedef {import('./links.js').Config} Config */

export class ConfigBar {
  /**
   * @param {Wasm} wasm @param {string} kind @param {Schema} schema
   * @param {{ prefix: string, seedId: string, seedSize: string }} ids the controls' ids
   * @param {{ edited: () => void, profileChanged: () => void, active: () => boolean }} on the
   *   form changed (the estimate follows); another profile was chosen; whether a run goes on
   */
  constructor(wasm, kind, schema, { prefix, seedId, seedSize }, on) {
    this.wasm = wasm;
    this.kind = kind;
    this.schema = schema;
    this.on = on;
    this.profile = profileSelect(`${prefix}-profile`, schema);
    this.seedParam = schema.page.seeds_param; // what run links call the seeds
    /** @type {Config[]} what the reader compares; the form shows configuration `current` */
    this.configs = [{ profile: '', set: [] }];
    this.current = 0;
    this.element = el('div', { class: 'config-bar', role: 'group', 'aria-label': 'Конфигурации для сравнения' });
    /** @type {{ chips: HTMLElement, add: HTMLElement, remove: HTMLElement } | null} the bar's parts, made once */
    this.bar = null;
    this.changes = el('p', { class: 'trainer-changes', hidden: '' }); // what differs from the profile
    // Every setting of the schema as a control; the form keeps what the reader typed.
    this.form = new SettingsForm(schema.fields, prefix, () => this.remember());
    this.form.reset(this.profile.value);
    // Seeds as a list; links call them as the trainer's schema says.
    this.seedInput = /** @type {HTMLInputElement} */ (
      el('input', { id: seedId, type: 'text', inputmode: 'numeric', size: seedSize, value: this.profileSeeds().join(', ') })
    );
    this.profile.addEventListener('change', () => {
      this.form.reset(this.profile.value);
      this.preview();
      this.seedInput.value = this.profileSeeds().join(', ');
      on.profileChanged();
    });
    this.configs[0].profile = this.profile.value;
    for (const c of [this.profile, this.seedInput]) c.addEventListener('change', () => this.remember());
    this.share = /** @type {HTMLAnchorElement} */ (el('a', { class: 'share', href: '#', text: 'Ссылка на этот запуск' }));
    // A teacher's way from a configuration on the panel to the class experiment with it.
    this.classLink = /** @type {HTMLAnchorElement} */ (el('a', { class: 'class-link', href: '#' }));
    this.updateClassLink();
  }

  /** The class experiment with the configuration the form shows (the contents page's «Эксперимент класса»). */
  updateClassLink() {
    if (!this.classLink) return; // the constructor's first preview comes before it
    this.classLink.href = classPageLink(this.kind, { profile: this.profile.value, set: this.form.overrides() }, CLASS_SEATS);
    const name = this.configs.length > 1 ? ` ${LETTERS[this.current]}` : '';
    this.classLink.textContent = `эксперимент класса с конфигурацией${name}`;
  }

  /** The chosen profile's seeds. @returns {number[]} */
  profileSeeds() {
    return this.schema.profiles.find((p) => p.name === this.profile.value)?.seeds ?? [];
  }

  /** The form's state into the configuration it shows. */
  sync() {
    this.configs[this.current] = { profile: this.profile.value, set: this.form.overrides() };
  }

  /** Shows configuration `k` in the form. @param {number} k */
  select(k) {
    this.sync();
    this.current = k;
    this.load(this.configs[k]);
    this.render();
    this.remember();
  }

  /** @param {Config} c */
  load(c) {
    this.profile.value = c.profile;
    this.form.reset(this.profile.value);
    this.form.apply(c.set);
    this.preview();
  }

  /** Configurations from elsewhere (a link, a prepared comparison), the first in the form. @param {Config[]} configs */
  replace(configs) {
    this.configs = configs.map((c) => ({ profile: c.profile, set: [...c.set] }));
    this.current = 0;
    this.load(this.configs[0]);
    this.render();
  }

  /** A copy of the shown configuration, to change one thing in it. */
  add() {
    if (this.configs.length >= MAX_CONFIGS) return;
    this.sync();
    this.configs.push({ ...this.configs[this.current], set: [...this.configs[this.current].set] });
    this.select(this.configs.length - 1);
  }

  remove() {
    if (this.configs.length < 2) return;
    this.configs.splice(this.current, 1);
    this.current = Math.min(this.current, this.configs.length - 1);
    this.load(this.configs[this.current]);
    this.render();
    this.remember();
  }

  /** A configuration's name: its letter, profile and differences (short, for the legend). @param {Config} c @param {number} k */
  label(c, k) {
    const diff = this.form.describe(c.profile, c.set, true);
    return `${LETTERS[k]}: ${c.profile}${diff ? `; ${diff}` : ''}`;
  }

  /**
   * The configuration bar. Its buttons are made once and updated in place: a bar rebuilt
   * under a click (a text field's change fires as the pointer goes down) would lose the click
   * and the keyboard focus.
   */
  render() {
    const active = this.on.active();
    if (!this.bar) {
      this.bar = {
        chips: el('span', { class: 'config-chips' }),
        add: el('button', { type: 'button', class: 'config-add', text: '+ конфигурация для сравнения', onclick: () => this.add() }),
        remove: el('button', { type: 'button', class: 'config-remove', text: 'убрать', onclick: () => this.remove() }),
      };
      this.element.replaceChildren(
        el('span', { class: 'config-title', text: 'Конфигурации: ' }),
        this.bar.chips,
        this.bar.add,
        this.bar.remove,
      );
    }
    const { chips, add, remove } = this.bar;
    while (chips.children.length > this.configs.length) chips.lastElementChild?.remove();
    while (chips.children.length < this.configs.length) {
      const k = chips.children.length;
      chips.append(el('button', { type: 'button', class: 'config-chip', 'data-config': String(k), onclick: () => this.select(k) }));
    }
    this.configs.forEach((c, k) => {
      const b = /** @type {HTMLButtonElement} */ (chips.children[k]);
      const text = this.configs.length > 1 ? this.label(c, k) : `A: ${c.profile}`;
      if (b.textContent !== text) b.textContent = text;
      b.title = this.form.describe(c.profile, c.set) || `профиль ${c.profile} без изменений`;
      b.setAttribute('aria-pressed', String(k === this.current));
      b.disabled = active;
    });
    add.toggleAttribute('disabled', active || this.configs.length >= MAX_CONFIGS);
    remove.toggleAttribute('disabled', active || this.configs.length < 2);
  }

  /** A run keeps the settings it started with. @param {boolean} active */
  lock(active) {
    this.form.setDisabled(active);
    this.render();
  }

  /**
   * Every configuration checked by wasm, one job per seed to come (throws wasm's message,
   * naming the configuration when there are several). @returns {CheckedRun[]}
   */
  check() {
    this.sync();
    return this.configs.map((c, k) => {
      try {
        return this.wasm.check_run(this.kind, c.profile, c.set, this.seedInput.value);
      } catch (e) {
        if (this.configs.length < 2) throw e;
        throw new Error(`конфигурация ${LETTERS[k]}: ${messageOf(e)}`, { cause: e });
      }
    });
  }

  /** The form's configurations checked without changing anything; null when one is refused. @returns {CheckedRun[] | null} */
  checkedForm() {
    try {
      return this.configs.map((c, k) =>
        k === this.current
          ? this.wasm.check_run(this.kind, this.profile.value, this.form.overrides(), this.seedInput.value)
          : this.wasm.check_run(this.kind, c.profile, c.set, this.seedInput.value),
      );
    } catch {
      return null; // Старт says why
    }
  }

  /** The settings that differ from the profile, in words (a checked run's, or the form's). @param {string} profile @param {[string, string][]} set */
  showChanges(profile, set) {
    this.changes.textContent = set.length ? `Изменено относительно профиля ${profile}: ${this.form.describe(profile, set)}.` : '';
    this.changes.hidden = set.length === 0;
  }

  /** The form's differences before they are checked (wasm checks them at Старт). */
  preview() {
    this.showChanges(this.profile.value, this.form.overrides());
    this.updateClassLink();
    this.on.edited();
  }

  /** Keeps what the reader typed in the URL (without starting anything), so Back restores it. */
  remember() {
    this.preview();
    this.sync();
    this.render();
    const q = new URLSearchParams({ form: this.kind });
    configParams(q, this.configs);
    q.set(this.seedParam, this.seedInput.value);
    setPageParams(q);
  }

  /** A link's seeds into the seed input. @param {URLSearchParams} q */
  applyParams(q) {
    const seeds = q.get(this.seedParam);
    if (seeds !== null) this.seedInput.value = seeds;
  }

  /** The share link of a checked run: the trainer, its configurations and the seeds. @param {CheckedRun[]} checked */
  shareUrl(checked) {
    const q = new URLSearchParams({ run: this.kind });
    configParams(
      q,
      checked.map((c) => ({ profile: c.profile, set: c.set })),
    );
    q.set(this.seedParam, (checked[0]?.seeds ?? []).join(','));
    return pageLink(null, q, `trainer-${this.kind}`);
  }
}

/**
 * The configurations into a link: one as `profile` and its settings by name, several as one
 * `cfg` each (`cfg=full;gamma=0.99`).
 * @param {URLSearchParams} q @param {Config[]} configs
 */
function configParams(q, configs) {
  if (configs.length === 1) {
    q.set('profile', configs[0].profile);
    for (const [k, v] of configs[0].set) q.set(k, v);
  } else {
    for (const c of configs) q.append('cfg', configText(c));
  }
}
