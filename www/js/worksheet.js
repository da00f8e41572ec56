// @ts-check
// Worksheets (issue 42): a lesson prints a predict → run → observe sheet made of its own page —
// each live figure (its controls, and a link with QR code to the figure at the settings on the
// screen), each prepared comparison (its question, its configurations, a link to run it) and
// each run link of the text — with room to write. The exercises page prints a student's copy
// (stems and choices, room for answers) and a teacher's (with the explanations and solutions).
// Nothing is written here twice: every sentence is a copy of the page's own nodes; the sheet
// exists only while printing (book.css shows it alone then).
import { core } from './core.js';
import { el } from './dom.js';
import { formatNumber } from './format.js';
import { pageLink, pageParams } from './links.js';
import { writeState } from './sliders.js';

/** A link as an absolute address (what a phone that scans the code opens). @param {string} link */
const absolute = (link) => new URL(link, location.href).href;

/**
 * The link in words and as a QR code (the core's SVG; a link too long for a code gets none and
 * says so).
 * @param {string} link
 */
function stateLink(link) {
  const href = absolute(link);
  const box = el('div', { class: 'ws-link' });
  const text = el('p', {}, 'Откройте: ', el('a', { href }, href));
  box.append(text);
  try {
    const svg = core.qr_svg(href);
    // A long link makes a denser symbol: printed larger, so that its modules stay ≥ ~0,5 mm.
    const code = el('div', {
      class: href.length > 150 ? 'ws-qr ws-qr-large' : 'ws-qr',
      role: 'img',
      'aria-label': `QR-код ссылки ${href}`,
    });
    code.innerHTML = svg;
    box.prepend(code);
  } catch (e) {
    text.append(el('span', { class: 'ws-note' }, ` (QR-код не построен: ${e instanceof Error ? e.message : String(e)})`));
  }
  return box;
}

/** Room to write, under its prompt. @param {string} prompt @param {string} [size] */
const room = (prompt, size = 'ws-space') => [el('p', { class: 'ws-prompt' }, prompt), el('div', { class: size })];

/** A deep copy of page nodes without ids, controls or anything hidden. @param {Node} node */
function copyOf(node) {
  const copy = /** @type {Element} */ (node.cloneNode(true));
  if (!(copy instanceof Element)) return copy;
  for (const e of [copy, ...copy.querySelectorAll('*')]) {
    e.removeAttribute('id');
    e.removeAttribute('for');
  }
  copy.querySelectorAll('button, .feedback, .present-open, .figure-error').forEach((e) => e.remove());
  return copy;
}

/** The sentence of a slider: what it sets and its range. @param {HTMLInputElement} input */
function sliderLine(input) {
  const label = input.dataset.label || input.dataset.param || '';
  if (input.type === 'checkbox') return `переключатель ${label}`;
  const [min, max, now] = [input.min, input.max, input.value].map((v) => formatNumber(Number(v)));
  return `${label} от ${min} до ${max} (сейчас ${now})`;
}

/** One worksheet item: a heading and its parts. @param {number} n @param {string} title @param {Node[]} parts */
const item = (n, title, parts) => el('section', { class: 'ws-item' }, el('h2', {}, `${n}. ${title}`), ...parts);

/** The lesson's sheet. */
function lessonSheet() {
  /** @type {HTMLElement[]} */
  const items = [];
  let n = 0;
  const main = document.querySelector('main');
  if (!main) return items;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (
    main.querySelectorAll('figure.live[data-figure], aside.prepared, section.trainer[id], a[href*="run="], a[href*="form="]')
  )) {
    if (node.matches('figure')) {
      const figure = node;
      const canvas = figure.querySelector('canvas');
      const inputs = [...figure.querySelectorAll(/** @type {'input'} */ ('input[data-param]'))];
      const flags = figure.querySelectorAll('input[data-flag]').length;
      const controls = [...inputs.map(sliderLine), ...(flags ? ['флаги записей буфера'] : [])].join('; ');
      const q = writeState(figure, new URLSearchParams());
      items.push(
        item(++n, `Рисунок: ${canvas?.dataset.label ?? ''}`, [
          el('p', {}, `Что можно менять: ${controls}.`),
          ...room(
            `Прогноз. Что станет с рисунком, когда вы передвинете ${inputs[0]?.dataset.label ?? 'ползунок'} от одного края к другому? Запишите до того, как откроете рисунок.`,
          ),
          stateLink(pageLink(null, q, figure.id)),
          ...room('Наблюдение. Что показал рисунок? Совпало ли с прогнозом? Если нет — почему?'),
        ]),
      );
    } else if (node.matches('aside.prepared')) {
      const figure = node;
      const question = figure.querySelector('.prediction');
      /** @type {Node[]} */
      const parts = [];
      if (question) {
        // The question, without the lesson's «Ожидание»: the student predicts first.
        const copy = copyOf(question);
        const strong = [...copy.querySelectorAll('strong')].find((s) => /Ожидание/.test(s.textContent ?? ''));
        if (strong) {
          while (strong.nextSibling) strong.nextSibling.remove();
          strong.remove();
        }
        parts.push(copy);
      }
      const configs = figure.querySelector('.prepared-configs');
      if (configs) parts.push(copyOf(configs));
      parts.push(...room('Прогноз. Что вы ожидаете увидеть в таблице сравнения?'));
      figure
        .querySelectorAll(/** @type {'a'} */ ('.prepared-run[data-link]'))
        .forEach((run) => parts.push(stateLink(run.dataset.link ?? '')));
      parts.push(...room('Наблюдение. Медианы и разброс по начальным значениям: что вышло, и подтвердился ли прогноз?'));
      items.push(item(++n, 'Подготовленное сравнение', parts));
    } else if (node.matches('section.trainer')) {
      // The panel's last run (its share link), else its form as the page holds it now.
      const kind = node.id.replace(/^trainer-/, '');
      const share = node.querySelector('a.share');
      const now = pageParams();
      const q = [now.get('run'), now.get('form')].includes(kind) ? now : new URLSearchParams({ form: kind });
      q.delete('present');
      const link = share && share.getAttribute('href') !== '#' ? (share.getAttribute('href') ?? '') : pageLink(null, q, node.id);
      items.push(
        item(++n, `Тренажёр: ${node.getAttribute('aria-label') ?? kind}`, [
          ...room('Прогноз. Какими будут кривые обучения: как быстро растёт результат, насколько расходятся начальные значения?'),
          stateLink(link),
          ...room('Наблюдение. Что показали кривые и таблица результатов?'),
        ]),
      );
    } else if (node instanceof HTMLAnchorElement && !node.closest('aside.prepared, section.trainer, .worksheet, nav')) {
      items.push(
        item(++n, `Запуск: ${node.textContent?.trim() ?? ''}`, [
          copyOf(node.closest('li, p') ?? node),
          ...room('Прогноз. Что произойдёт за время обучения?', 'ws-space ws-small'),
          stateLink(node.getAttribute('href') ?? ''),
          ...room('Наблюдение. Что показали кривые и таблица?', 'ws-space ws-small'),
        ]),
      );
    }
  }
  const exercises = main.querySelector('.exercise-links');
  if (exercises) items.push(el('section', { class: 'ws-item' }, copyOf(exercises)));
  return items;
}

/**
 * The exercises page's sheet: each exercise's stem and choices, and each coding exercise's task
 * and stub, with room for the answer; the teacher's copy adds each choice's explanation and
 * the solutions. The coding exercises' test cases and hints stay on the page (the notebook has
 * them).
 * @param {boolean} teacher
 */
function exercisesSheet(teacher) {
  /** @type {HTMLElement[]} */
  const items = [];
  /** A solution as the teacher's copy prints it. @param {Element} answer */
  const solution = (answer) =>
    el(
      'div',
      { class: 'ws-solution' },
      el('p', { class: 'ws-prompt' }, 'Решение'),
      ...[...answer.children].filter((c) => !c.matches('summary')).map(copyOf),
    );
  for (const heading of document.querySelectorAll('main h3[id^="exercise-"], main h3[id^="code-"]')) {
    if (heading.id.startsWith('code-') && !heading.nextElementSibling?.matches('.code-exercise')) continue;
    const section = el('section', { class: 'ws-item ws-exercise' }, copyOf(heading));
    for (let node = heading.nextElementSibling; node && !node.matches('h2, h3'); node = node.nextElementSibling) {
      if (node.matches('details.answer')) {
        if (teacher) section.append(solution(node));
        continue;
      }
      const copy = copyOf(node);
      if (!(copy instanceof Element)) continue;
      copy.querySelectorAll('details.code-cases, details.code-hints').forEach((d) => d.remove());
      copy.querySelectorAll('details.answer').forEach((answer) => (teacher ? answer.replaceWith(solution(answer)) : answer.remove()));
      if (node.matches('form.exercise')) {
        copy.querySelectorAll('[data-why]').forEach((why) => (teacher ? why.removeAttribute('hidden') : why.remove()));
        copy.querySelectorAll('input[type=checkbox], input[type=radio]').forEach((box) => box.replaceWith('☐ '));
        copy.querySelectorAll('input').forEach((field) => field.replaceWith(el('span', { class: 'ws-blank' })));
        section.append(el('div', { class: 'ws-form' }, ...copy.childNodes));
      } else section.append(copy);
    }
    if (!teacher) section.append(...room('Ответ и решение', 'ws-space ws-small'));
    items.push(section);
  }
  return items;
}

/**
 * Builds the sheet (`lesson`, `student` or `teacher`) and prints it alone.
 * @param {'lesson' | 'student' | 'teacher'} copy
 */
export function printWorksheet(copy) {
  document.querySelector('.worksheet')?.remove();
  const title = document.querySelector('main h1')?.textContent ?? document.title;
  const kinds = {
    lesson: 'рабочий лист: прогноз → запуск → наблюдение',
    student: 'экземпляр ученика',
    teacher: 'экземпляр учителя, с решениями',
  };
  const sheet = el(
    'section',
    { class: 'worksheet', 'data-copy': copy },
    el('h1', {}, `${title} — ${kinds[copy]}`),
    el('p', { class: 'ws-name' }, 'Имя: ', el('span', { class: 'ws-blank ws-long' }), ' Дата: ', el('span', { class: 'ws-blank' })),
    ...(copy === 'lesson' ? lessonSheet() : exercisesSheet(copy === 'teacher')),
  );
  document.body.append(sheet);
  document.documentElement.dataset.print = 'worksheet';
  addEventListener(
    'afterprint',
    () => {
      sheet.remove();
      delete document.documentElement.dataset.print;
    },
    { once: true },
  );
  window.print();
}

/** The lesson's print buttons under its heading (a lesson is a page with a pager). */
export function wireWorksheet() {
  const heading = document.querySelector('main h1');
  if (!heading || !document.querySelector('nav.pager') || document.querySelector('.worksheet-controls')) return;
  const button = (/** @type {string} */ text, /** @type {'lesson' | 'student' | 'teacher'} */ copy) =>
    el('button', { type: 'button', 'data-worksheet': copy, onclick: () => printWorksheet(copy) }, text);
  const exercises = document.querySelector('form.exercise') !== null && !document.querySelector('figure.live');
  heading.after(
    el(
      'p',
      { class: 'worksheet-controls' },
      ...(exercises
        ? ['Упражнения на бумаге: ', button('Печать для ученика', 'student'), ' ', button('Печать для учителя', 'teacher')]
        : [
            button('Рабочий лист', 'lesson'),
            ' — прогноз, запуск и наблюдение для каждого опыта урока, со ссылками и QR-кодами, на бумаге.',
          ]),
    ),
  );
}
