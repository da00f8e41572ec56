// @ts-check
// Every setting of a trainer as a control, generated from its schema (wasm's trainer_schema):
// grouped as the schema groups them, each with its Russian label, help text, bounds and unit.
// The form only collects text: wasm checks every value (check_run) before any worker starts,
// and its message names the setting and its bounds.
import { formatNumber } from './format.js';

/** @typedef {import('../pkg/pgbook.js').FieldSpec} Field a field of the schema (what `pgbook settings NAME --json` prints) */

/** The text a value has in a form, a URL and `--set` (wasm parses exactly this). @param {unknown} v */
export function settingText(v) {
  if (v === null || v === undefined) return 'off';
  if (Array.isArray(v)) return v.join(',');
  return String(v);
}

/** A setting's value for the reader: decimal comma, «нет» for off. @param {string} text */
function shown(text) {
  if (text === 'off') return 'нет';
  if (text === 'true') return 'да';
  if (text === 'false') return 'нет';
  if (/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(text)) {
    // Every significant digit a small value has: CleanRL's learning rate is 0,00025, not «0».
    const x = Number(text);
    const digits = x === 0 ? 3 : Math.min(12, Math.max(3, 2 - Math.floor(Math.log10(Math.abs(x)))));
    return formatNumber(x, digits);
  }
  return text.replaceAll(',', ', ');
}

/**
 * What a value means, when the setting's help says it in the schema's «VALUE — meaning» form
 * («0 — только в конце», «terminal — один флаг done: …»); '' otherwise.
 * @param {Field} f @param {string} text
 */
function meaning(f, text) {
  const value = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = f.help.match(new RegExp(`(?:^|[;.] )${value} — ([^;]*?)(?:[;.]|$)`));
  return m ? m[1] : '';
}

/** The field's bounds in words, for the help line. @param {Field} f */
function bounds(f) {
  switch (f.type) {
    case 'int':
      return `целые от ${formatNumber(f.min ?? 0)} до ${formatNumber(f.max ?? 0)}`;
    case 'real': {
      if (f.min == null || f.max == null) return '';
      const range = `${f.min_open ? '(' : '['}${formatNumber(f.min)}; ${formatNumber(f.max)}${f.max_open ? ')' : ']'}`;
      return f.optional ? `${range} или ${f.off ?? 'off'}` : range;
    }
    case 'int_list':
      return `до ${f.max_len} целых от ${formatNumber(f.min ?? 0)} до ${formatNumber(f.max ?? 0)} через запятую`;
    default:
      return '';
  }
}

/**
 * What a set of overrides changes from its profile, in words («γ — коэффициент
 * дисконтирования: 0,98 → 0,99»); `short` names each setting by its symbol only («γ: 0,98 →
 * 0,99», for legends).
 * @param {Field[]} fields @param {string} profile @param {[string, string][]} set @param {boolean} [short]
 */
export function describeSet(fields, profile, set, short = false) {
  return set
    .map(([name, text]) => {
      const f = fields.find((x) => x.name === name);
      if (!f) return `${name} = ${text}`;
      const label = short ? f.label.split(' — ')[0] : f.label;
      const means = short ? '' : meaning(f, text);
      return `${label}: ${shown(settingText(f.default[profile]))} → ${shown(text)}${means ? ` (${means})` : ''}`;
    })
    .join('; ');
}

/**
 * Where profile `to` differs from profile `from`, in words, setting by setting.
 * @param {Field[]} fields @param {string} from @param {string} to
 */
export function describeProfiles(fields, from, to) {
  /** @type {[string, string][]} */
  const set = fields
    .filter((f) => settingText(f.default[from]) !== settingText(f.default[to]))
    .map((f) => [f.name, settingText(f.default[to])]);
  return describeSet(fields, from, set);
}

export class SettingsForm {
  /**
   * @param {Field[]} fields @param {string} prefix ids of the controls (`${prefix}-${name}`)
   * @param {() => void} onChange
   */
  constructor(fields, prefix, onChange) {
    this.fields = fields;
    /** @type {Map<string, HTMLInputElement | HTMLSelectElement>} */
    this.inputs = new Map();
    /** @type {Map<string, string>} a link's text that its control cannot hold (a choice it does not offer) */
    this.pending = new Map();
    this.profile = '';
    this.element = document.createElement('details');
    this.element.className = 'trainer-settings';
    const summary = document.createElement('summary');
    summary.textContent = `Все настройки (${fields.length})`;
    this.element.append(summary);
    /** @type {Map<string, HTMLFieldSetElement>} */
    const groups = new Map();
    for (const f of fields) {
      let set = groups.get(f.group);
      if (!set) {
        set = document.createElement('fieldset');
        const legend = document.createElement('legend');
        legend.textContent = f.group_label;
        set.append(legend);
        groups.set(f.group, set);
        this.element.append(set);
      }
      const input = this.control(f, `${prefix}-${f.name}`);
      input.addEventListener('change', () => {
        this.pending.delete(f.name);
        onChange();
      });
      this.inputs.set(f.name, input);
      const label = document.createElement('label');
      label.htmlFor = input.id;
      label.textContent = f.unit ? `${f.label}, ${f.unit}` : f.label;
      const help = document.createElement('small');
      const range = bounds(f);
      help.textContent = range ? `${f.help} Допустимо: ${range}.` : f.help;
      help.id = `${input.id}-help`;
      input.setAttribute('aria-describedby', help.id);
      const row = document.createElement('div');
      row.className = 'setting';
      row.dataset.setting = f.name;
      row.append(label, input, help);
      set.append(row);
    }
  }

  /** @param {Field} f @param {string} id @returns {HTMLInputElement | HTMLSelectElement} */
  control(f, id) {
    if (f.type === 'choice' || f.type === 'bool') {
      const select = document.createElement('select');
      select.id = id;
      const choices = f.type === 'bool' ? ['true', 'false'] : (f.choices ?? []);
      for (const c of choices) select.append(new Option(f.type === 'bool' ? shown(c) : c, c));
      return select;
    }
    const input = document.createElement('input');
    input.id = id;
    input.type = 'text';
    input.spellcheck = false;
    input.autocomplete = 'off';
    input.size = f.type === 'int_list' ? 10 : 8;
    if (f.type === 'int') input.inputMode = 'numeric';
    if (f.type === 'real' && !f.optional) input.inputMode = 'decimal';
    if (f.optional) input.placeholder = f.off ?? 'off';
    return input;
  }

  /** Every control back to `profile`'s values. @param {string} profile */
  reset(profile) {
    this.profile = profile;
    this.pending.clear();
    for (const f of this.fields) {
      const input = this.inputs.get(f.name);
      if (input) input.value = settingText(f.default[profile]);
    }
  }

  /** A link's values, as given (wasm checks them with the rest). @param {[string, string][]} pairs */
  apply(pairs) {
    for (const [name, text] of pairs) {
      const input = this.inputs.get(name);
      if (!input) continue;
      input.value = text;
      if (input.value !== text) this.pending.set(name, text);
    }
  }

  /**
   * The settings that differ from the profile, as text. A decimal comma is read as a point
   * and spaces in a list are dropped: what wasm then checks is what the reader meant.
   * @returns {[string, string][]}
   */
  overrides() {
    /** @type {[string, string][]} */
    const out = [];
    for (const f of this.fields) {
      const input = this.inputs.get(f.name);
      if (!input) continue;
      let text = this.pending.get(f.name) ?? input.value.trim();
      if (f.type === 'real') text = text.replace(',', '.');
      if (f.type === 'int_list') text = text.replace(/\s+/g, '');
      if (text !== settingText(f.default[this.profile])) out.push([f.name, text]);
    }
    return out;
  }

  /**
   * What a checked run changed from its profile, in words ([`describeSet`]).
   * @param {string} profile @param {[string, string][]} set the overrides wasm accepted
   * @param {boolean} [short]
   */
  describe(profile, set, short = false) {
    return describeSet(this.fields, profile, set, short);
  }

  /** @param {boolean} disabled */
  setDisabled(disabled) {
    for (const set of this.element.querySelectorAll('fieldset')) set.disabled = disabled;
  }
}
