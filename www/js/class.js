// @ts-check
// The class experiment with no server (the contents page's #class). A teacher turns a run link
// (any trainer panel's, or a prepared comparison's configuration) and a number of seats into a
// class link; a student who opens it takes a seat (its number is the seed), runs that seed in a
// trainers' worker and gets the result code as text and as a QR code; the teacher pastes the
// codes, gets the class's table and band (the core's merge: the same as `pgbook class merge`),
// recomputes any seed in a worker to confirm its fingerprint, and keeps the result in history.

import { fitCanvas } from './canvas.js';
import { loadFull } from './core.js';
import { el, messageOf, textTable } from './dom.js';
import { formatNumber } from './format.js';
import { listRecords, saveRecord } from './history.js';
import { classPageLink, configText, pageParams, parseConfig } from './links.js';
import { newWorker } from './pool.js';

/** @typedef {import('./links.js').Config} Config */
/** @typedef {{ kind: string, config: Config, seats: number }} ClassSpec */
/** @typedef {import('./protocol.js').ToWorker} ToWorker */
/** @typedef {import('./protocol.js').FromWorker} FromWorker */
/** @typedef {typeof import('../pkg/pgbook.js')} FullCore */
/** @typedef {import('../pkg/pgbook.js').ClassResult} ClassResult */

/** Most seats a class link offers. */
const MAX_SEATS = 200;
/** Link parameters that are no setting. */
const NOT_SETTINGS = new Set(['run', 'profile', 'seeds', 'seed']);

/**
 * A run link's class (`ppo.html?run=ppo&profile=full&gamma=0.98#trainer-ppo`, or the one-file
 * book's `pgbook.html#ppo/trainer-ppo?run=ppo&profile=full`).
 * @param {string} link @returns {{ kind: string, config: Config }}
 */
export function classOfLink(link) {
  const text = link.trim();
  const at = text.indexOf('?');
  if (at < 0) throw new Error('в ссылке нет настроек запуска (части после «?»)');
  const params = new URLSearchParams(text.slice(at + 1).split('#')[0]);
  const kind = params.get('run');
  const profile = params.get('profile');
  if (!kind) throw new Error('в ссылке нет параметра run= (какой тренер запускать)');
  if (!profile) throw new Error('в ссылке нет параметра profile= (профиль настроек)');
  /** @type {[string, string][]} */
  const set = [...params].filter(([k]) => !NOT_SETTINGS.has(k));
  return { kind, config: { profile, set } };
}

/** The class a page's address names, or null. @param {URLSearchParams} q @returns {ClassSpec | null} */
function classOfParams(q) {
  const kind = q.get('class');
  if (!kind) return null;
  const seats = Number(q.get('n') ?? '30');
  return { kind, config: parseConfig(q.get('config') ?? 'smoke'), seats: Number.isInteger(seats) ? seats : 0 };
}

/** The class link of `spec` (absolute: it is handed out). @param {ClassSpec} spec */
function classLink(spec) {
  return new URL(classPageLink(spec.kind, spec.config, spec.seats), location.href).href;
}

/** @param {Config} c */
const requestOf = (c) => JSON.stringify({ profile: c.profile, set: c.set });

/**
 * Runs one message in a fresh trainers' worker and resolves with its answer of the same type;
 * `onProgress` hears a class run's progress.
 * @param {ToWorker} message @param {(done: number, total: number) => void} [onProgress] @returns {Promise<FromWorker>}
 */
function inWorker(message, onProgress) {
  return new Promise((resolve, reject) => {
    const worker = newWorker();
    const end = () => worker.terminate();
    worker.onmessage = (/** @type {MessageEvent<FromWorker>} */ e) => {
      const m = e.data;
      if (m.type === 'ready') worker.postMessage(message);
      else if (m.type === 'class_progress') onProgress?.(m.done, m.total);
      else if (m.type === 'error' || m.type === 'panic') {
        end();
        reject(new Error(m.message));
      } else if (m.type === message.type) {
        end();
        resolve(m);
      }
    };
    worker.onerror = (e) => {
      end();
      reject(new Error(`фоновый поток остановился: ${e.message || 'без объяснения'}`));
    };
  });
}

/** A QR code of `text` as an SVG element, from the core (src/qr.rs), or why not. @param {FullCore} wasm @param {string} text */
function qrCode(wasm, text) {
  try {
    const box = el('div', { class: 'class-qr', role: 'img', 'aria-label': `QR-код: ${text}` });
    box.innerHTML = wasm.qr_svg(text);
    return box;
  } catch (e) {
    return el('p', { class: 'figure-error', role: 'alert', text: `QR-код не построен: ${messageOf(e)}` });
  }
}

/** A read-only text with a copy button. @param {string} label @param {string} text @param {string} id */
function copyable(label, text, id) {
  const input = /** @type {HTMLInputElement} */ (el('input', { id, readonly: '', value: text, size: String(Math.min(90, text.length)) }));
  const said = el('span', { role: 'status' });
  const copy = el('button', {
    type: 'button',
    text: 'Копировать',
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        said.textContent = 'скопировано';
      } catch {
        input.select();
        said.textContent = 'выделено: нажмите Ctrl+C';
      }
    },
  });
  return el('p', {}, el('label', { for: id, text: `${label} ` }), input, ' ', copy, ' ', said);
}

/**
 * Wires the class section: the teacher's form, a class link's student part, the merge.
 * @param {HTMLElement} root
 */
export async function wireClass(root) {
  // The whole core only when used (the contents page itself loads no trainer), or at once for a
  // class link.
  /** @type {FullCore | null} */
  let wasm = null;
  const core = async () => (wasm ??= await loadFull());
  const fromLink = classOfParams(pageParams());
  /** @type {ClassSpec | null} */
  let spec = null;
  const status = el('p', { class: 'class-status', role: 'status' });
  const student = el('div', { 'data-class-student': '' });
  const teacher = el('div', { 'data-class-teacher': '' });

  /** Checks `s` with the core: its trainer, profile and settings. @param {ClassSpec} s */
  const describe = async (s) => {
    const id = (await core()).class_config(s.kind, requestOf(s.config));
    const set = s.config.set.map(([k, v]) => `${k}=${v}`).join(', ');
    return `${id.trainer}, профиль ${s.config.profile}${set ? ` (${set})` : ''}, конфигурация ${id.config}`;
  };

  // --- The teacher makes a class link.
  const linkInput = /** @type {HTMLInputElement} */ (
    el('input', { id: 'class-run-link', type: 'text', size: '60', placeholder: 'ppo.html?run=ppo&profile=smoke' })
  );
  const seatsInput = /** @type {HTMLInputElement} */ (
    el('input', { id: 'class-seats', type: 'number', min: '1', max: String(MAX_SEATS), value: '30' })
  );
  const made = el('div', { 'data-class-link': '' });
  const make = el('button', {
    type: 'button',
    text: 'Сделать ссылку класса',
    onclick: async () => {
      made.replaceChildren();
      try {
        const seats = Number(seatsInput.value);
        if (!Number.isInteger(seats) || seats < 1 || seats > MAX_SEATS)
          throw new Error(`число мест — целое от 1 до ${MAX_SEATS}, а не «${seatsInput.value}»`);
        const s = { ...classOfLink(linkInput.value), seats };
        const what = await describe(s);
        spec = s;
        const link = classLink(s);
        const qr = qrCode(await core(), link);
        made.append(el('p', { text: `Класс: ${what}; мест: ${seats}.` }), copyable('Ссылка класса:', link, 'class-link'));
        made.append(qr);
        status.textContent = 'Ссылка класса готова: раздайте её ученикам, а их коды вставьте ниже.';
      } catch (e) {
        made.append(el('p', { class: 'figure-error', role: 'alert', text: messageOf(e) }));
      }
    },
  });
  const form = el(
    'div',
    { class: 'class-make' },
    el(
      'p',
      {},
      el('label', { for: 'class-run-link', text: 'Ссылка на запуск (кнопка «Ссылка» панели или подготовленного сравнения): ' }),
      linkInput,
    ),
    el('p', {}, el('label', { for: 'class-seats', text: 'Мест (начальных чисел): ' }), seatsInput, ' ', make),
    made,
  );

  // --- A student takes a seat and runs it.
  if (fromLink) {
    try {
      const what = await describe(fromLink);
      spec = fromLink;
      const seat = /** @type {HTMLInputElement} */ (
        el('input', { id: 'class-seat', type: 'number', min: '1', max: String(fromLink.seats), value: '' })
      );
      const out = el('div', { 'data-class-code': '' });
      const bar = /** @type {HTMLProgressElement} */ (el('progress', { max: '1', value: '0', 'aria-label': 'Ход обучения' }));
      const run = /** @type {HTMLButtonElement} */ (el('button', { type: 'button', text: 'Запустить' }));
      const free = el('button', {
        type: 'button',
        text: 'Свободный номер',
        onclick: () => {
          seat.value = String(1 + Math.floor(Math.random() * fromLink.seats));
        },
      });
      run.addEventListener('click', async () => {
        const n = Number(seat.value);
        out.replaceChildren();
        if (!Number.isInteger(n) || n < 1 || n > fromLink.seats) {
          out.append(el('p', { class: 'figure-error', role: 'alert', text: `номер места — целое от 1 до ${fromLink.seats}` }));
          return;
        }
        run.disabled = true;
        status.textContent = `Идёт обучение с начальным числом ${n}…`;
        try {
          const m = await inWorker(
            { type: 'class', kind: fromLink.kind, request: JSON.parse(requestOf(fromLink.config)), seed: n },
            (done, total) => {
              bar.max = Math.max(1, total);
              bar.value = done;
            },
          );
          if (m.type !== 'class') throw new Error('фоновый поток ответил не тем');
          out.append(copyable(`Код места ${n}:`, m.code, 'class-code'));
          const qr = qrCode(await core(), m.code);
          out.append(qr);
          status.textContent = `Готово: код места ${n} — передайте его учителю.`;
        } catch (e) {
          out.append(el('p', { class: 'figure-error', role: 'alert', text: `Обучение не удалось: ${messageOf(e)}` }));
          status.textContent = 'Обучение не удалось; можно запустить снова.';
        } finally {
          run.disabled = false;
        }
      });
      student.append(
        el('h3', { text: 'Ваш запуск' }),
        el('p', { text: `Класс: ${what}; мест: ${fromLink.seats}. Выберите номер места (это начальное число) или возьмите свободный.` }),
        el('p', {}, el('label', { for: 'class-seat', text: 'Номер места: ' }), seat, ' ', free, ' ', run),
        el('p', {}, bar),
        out,
      );
    } catch (e) {
      student.append(el('p', { class: 'figure-error', role: 'alert', text: `Ссылка класса не читается: ${messageOf(e)}` }));
    }
  }

  // --- The teacher merges the codes.
  const codes = /** @type {HTMLTextAreaElement} */ (el('textarea', { id: 'class-codes', rows: '8', cols: '70', spellcheck: 'false' }));
  const merged = el('div', { 'data-class-merged': '' });
  const saved = el('div', { 'data-class-saved': '' });
  const canvas = /** @type {HTMLCanvasElement} */ (
    el('canvas', { id: 'class-band', class: 'class-band', role: 'img', 'aria-label': 'Полоса класса' })
  );
  /** @type {{ spec: ClassSpec, codes: string, class: ClassResult } | null} the merge shown */
  let shown = null;

  const merge = async () => {
    merged.replaceChildren();
    shown = null;
    if (!spec) {
      merged.append(
        el('p', {
          class: 'figure-error',
          role: 'alert',
          text: 'Сначала сделайте ссылку класса или откройте её: коды сверяются с её конфигурацией.',
        }),
      );
      return;
    }
    const s = spec;
    try {
      const w = await core();
      const c = w.class_merge(codes.value, s.kind, requestOf(s.config));
      shown = { spec: s, codes: codes.value, class: c };
      /** @type {any} */ (window).pgbookClass = c; // for the page tests
      merged.append(...renderClass(w, s, c, codes.value, canvas));
      status.textContent = `Собрано кодов: ${c.rows.length}; отклонено: ${c.refused.length}.`;
    } catch (e) {
      merged.append(el('p', { class: 'figure-error', role: 'alert', text: messageOf(e) }));
    }
  };
  const save = el('button', {
    type: 'button',
    text: 'Сохранить в историю',
    onclick: async () => {
      if (!shown) return;
      try {
        const { spec: s, codes: text, class: c } = shown;
        await saveRecord({
          kind: 'class',
          saved_at: new Date().toISOString(),
          trainer: s.kind,
          config: configText(s.config),
          seats: s.seats,
          codes: text,
          accepted: c.rows.length,
        });
        status.textContent = 'Результат класса сохранён в истории этого браузера.';
        await listSaved();
      } catch (e) {
        status.textContent = `Сохранить не удалось: ${messageOf(e)}`;
      }
    },
  });
  const listSaved = async () => {
    saved.replaceChildren();
    try {
      const records = await listRecords('class');
      if (!records.length) return;
      const items = records.map((r) =>
        el(
          'li',
          {},
          `${new Date(r.saved_at).toLocaleString('ru-RU')}: ${r.trainer}, ${r.config}, кодов ${r.accepted} `,
          el('button', {
            type: 'button',
            text: 'Открыть',
            onclick: () => {
              spec = { kind: String(r.trainer), config: parseConfig(String(r.config)), seats: Number(r.seats) };
              codes.value = String(r.codes);
              merge();
            },
          }),
        ),
      );
      saved.append(el('h3', { text: 'Сохранённые результаты классов' }), el('ul', {}, ...items));
    } catch (e) {
      saved.append(el('p', { text: `История недоступна: ${messageOf(e)}` }));
    }
  };
  teacher.append(
    el('h3', { text: 'Коды учеников' }),
    el('p', {}, el('label', { for: 'class-codes', text: 'Вставьте коды, по одному в строке (или текст отсканированного QR-кода):' })),
    codes,
    el('p', {}, el('button', { type: 'button', text: 'Собрать', onclick: merge }), ' ', save),
    merged,
    saved,
  );
  root.replaceChildren(...(fromLink ? [student, status, teacher] : [form, status, teacher]));
  await listSaved();
}

/**
 * The merged class: refusals, the table (each seed with its recompute button), the summary,
 * the band figure and its numbers.
 * @param {FullCore} wasm @param {ClassSpec} spec @param {ClassResult} c the core's class @param {string} text
 * @param {HTMLCanvasElement} canvas @returns {HTMLElement[]}
 */
function renderClass(wasm, spec, c, text, canvas) {
  const parts = [];
  if (c.refused.length)
    parts.push(
      el(
        'div',
        { role: 'alert', 'data-class-refused': '' },
        el('p', { text: 'Отклонены:' }),
        el('ul', {}, ...c.refused.map((r) => el('li', { text: r.reason }))),
      ),
    );
  const table = textTable(
    ['Начальное число', 'Итог', 'Цель достигнута на', 'Отпечаток', 'Проверка'],
    c.rows.map((r) => [String(r.seed), formatNumber(r.score), r.reached === null ? '—' : formatNumber(r.reached), r.fingerprint, '']),
    { 'data-class-table': '' },
  );
  c.rows.forEach((r, i) => {
    const cell = table.tBodies[0].rows[i].cells[4];
    const check = /** @type {HTMLButtonElement} */ (el('button', { type: 'button', text: 'Пересчитать' }));
    check.addEventListener('click', async () => {
      check.disabled = true;
      cell.querySelector('span')?.remove();
      const said = el('span', { role: 'status', text: ' пересчёт…' });
      cell.append(said);
      try {
        await inWorker({ type: 'class_verify', kind: spec.kind, request: JSON.parse(requestOf(spec.config)), code: r.code });
        said.textContent = ' подтверждён';
        said.dataset.verified = 'yes';
      } catch (e) {
        said.textContent = ` ${messageOf(e)}`;
        said.dataset.verified = 'no';
      } finally {
        check.disabled = false;
      }
    });
    cell.append(check);
  });
  parts.push(table);
  const q = c.result.score;
  const reached = c.result.reached_at;
  parts.push(
    el('p', {
      'data-class-summary': '',
      text: q
        ? `Итог по ${c.rows.length} начальным числам: медиана ${formatNumber(q.median)} [МКР ${formatNumber(q.q25)} – ${formatNumber(q.q75)}]; ` +
          `цель достигнута у ${c.result.reached} из ${c.rows.length}` +
          (reached ? `, медиана — на ${formatNumber(reached.median)} [${formatNumber(reached.q25)} – ${formatNumber(reached.q75)}].` : '.')
        : 'Ни один код не принят: итога пока нет.',
    }),
  );
  const figure = el('figure', { class: 'live-plain class-figure' });
  figure.append(canvas);
  const draw = () => {
    fitCanvas(canvas, draw);
    try {
      wasm.draw_class(canvas.id, text, spec.kind, requestOf(spec.config));
      canvas.dataset.drawn = String(c.rows.length);
    } catch (e) {
      canvas.replaceWith(el('p', { class: 'figure-error', role: 'alert', text: messageOf(e) }));
    }
  };
  requestAnimationFrame(draw);
  const curve = c.curve;
  const band = textTable(
    [spec.kind === 'sequence' ? 'Итерация' : 'Переходы среды', 'Медиана', '25 %', '75 %'],
    curve.env_steps.map((/** @type {number} */ x, /** @type {number} */ i) => [
      String(x),
      formatNumber(curve.median[i]),
      formatNumber(curve.q25[i]),
      formatNumber(curve.q75[i]),
    ]),
    { 'data-class-band': '' },
  );
  figure.append(
    el('figcaption', { text: 'Полоса класса: медиана и межквартильный размах по начальным числам учеников на точках кода' }),
    band,
  );
  parts.push(figure);
  return parts;
}
