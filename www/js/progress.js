// @ts-check
// Where the reader left off, kept in this browser (localStorage): the sections of each page
// reached, the pages read to the end, the exercises solved and the last section reached (the
// contents page's «Продолжить с …»). Like the saved runs (history.js), the record is input from
// another visit or build: it is checked when read, and a damaged one is reported and replaced,
// never fatal. Without storage (a private window, a page opened from disk that the browser
// gives none) the marks last as long as the page.

const KEY = 'pgbook-progress';
// What the record holds. Raise it when that changes, and migrate the older records in readProgress.
export const PROGRESS_VERSION = 1;

/**
 * One page's progress: the anchors of the sections reached, how many sections it had, whether
 * every one was reached, when.
 * @typedef {{ sections: string[], total: number, read: boolean, at: string }} PageProgress
 * @typedef {{ page: string, anchor: string, title: string, heading: string, at: string }} Place
 * @typedef {{ version: number, pages: Record<string, PageProgress>, exercises: number[], last: Place | null }} Progress
 */

/** @returns {Progress} */
export const emptyProgress = () => ({ version: PROGRESS_VERSION, pages: {}, exercises: [], last: null });

/** @param {unknown} x @returns {x is Record<string, any>} */
const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A short string (an anchor, a title). @param {unknown} x */
const isText = (x) => typeof x === 'string' && x.length <= 300;
/** @param {unknown} x */
const isDate = (x) => typeof x === 'string' && Number.isFinite(Date.parse(x));
/** A page's name as the book writes it (a file without `.html`). @param {unknown} x */
const isPage = (x) => typeof x === 'string' && /^[a-z0-9-]{1,40}$/.test(x);

/** @param {unknown} p @returns {p is PageProgress} */
const isPageProgress = (p) =>
  isObject(p) &&
  Array.isArray(p.sections) &&
  p.sections.length <= 500 &&
  p.sections.every(isText) &&
  Number.isInteger(p.total) &&
  p.total >= 0 &&
  p.total <= 500 &&
  typeof p.read === 'boolean' &&
  isDate(p.at);

/** @param {unknown} p @returns {p is Place} */
const isPlace = (p) => isObject(p) && isPage(p.page) && isText(p.anchor) && isText(p.title) && isText(p.heading) && isDate(p.at);

/**
 * The stored record, checked: the progress to show, and what was wrong with it (null: nothing).
 * A record that cannot be read at all is replaced by an empty one; a damaged part of one is
 * dropped and the rest kept. Never throws.
 * @param {string | null} text @returns {{ progress: Progress, problem: string | null }}
 */
export function readProgress(text) {
  if (text === null) return { progress: emptyProgress(), problem: null };
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return { progress: emptyProgress(), problem: 'запись не читается' };
  }
  if (!isObject(raw)) return { progress: emptyProgress(), problem: 'запись не читается' };
  if (raw.version !== PROGRESS_VERSION)
    return { progress: emptyProgress(), problem: typeof raw.version === 'number' ? 'запись другой версии книги' : 'запись не читается' };
  const progress = emptyProgress();
  /** @type {string[]} */
  const damaged = [];
  if (isObject(raw.pages)) {
    for (const [page, p] of Object.entries(raw.pages)) {
      if (isPage(page) && isPageProgress(p))
        progress.pages[page] = { sections: [...new Set(p.sections)], total: p.total, read: p.read, at: p.at };
      else damaged.push(`страница «${String(page).slice(0, 40)}»`);
    }
  } else damaged.push('страницы');
  if (Array.isArray(raw.exercises) && raw.exercises.every((n) => Number.isInteger(n) && n > 0 && n < 10000))
    progress.exercises = [...new Set(/** @type {number[]} */ (raw.exercises))].sort((a, b) => a - b);
  else damaged.push('упражнения');
  if (raw.last === null || isPlace(raw.last)) progress.last = raw.last;
  else damaged.push('последнее место');
  return { progress, problem: damaged.length ? `повреждены: ${damaged.join(', ')}` : null };
}

/**
 * The reader's progress as this page keeps it: read once from storage, written on every
 * change. `problem` says what was wrong with the stored record (it has been replaced), or
 * that there is no storage.
 */
export class ProgressStore {
  constructor() {
    /** @type {string | null} */
    this.problem = null;
    /** Whether changes reach storage. */
    this.stored = true;
    let text = null;
    try {
      text = localStorage.getItem(KEY);
    } catch {
      this.stored = false;
      this.problem = 'браузер не даёт этой странице хранилища, и отметки пропадут, когда она закроется';
    }
    const read = readProgress(text);
    /** @type {Progress} */
    this.progress = read.progress;
    if (read.problem) {
      this.problem = `Сохранённые отметки о прочитанном не годятся (${read.problem}) и заменены`;
      this.save();
    }
  }

  /** Writes the record; a refusal (quota, storage switched off meanwhile) keeps the marks in memory. */
  save() {
    if (!this.stored) return;
    try {
      localStorage.setItem(KEY, JSON.stringify(this.progress));
    } catch {
      this.stored = false;
      this.problem = 'браузер не сохранил отметки о прочитанном, и они пропадут, когда страница закроется';
    }
  }

  /**
   * Sections of `page` reached (of `total`), the last of them where the reader is. Returns
   * whether anything changed.
   * @param {string} page @param {string[]} anchors @param {number} total @param {Omit<Place, 'at'> | null} place
   */
  reach(page, anchors, total, place) {
    const at = new Date().toISOString();
    const was = this.progress.pages[page];
    const sections = [...new Set([...(was?.sections ?? []), ...anchors])];
    const read = (was?.read ?? false) || (total > 0 && sections.length >= total);
    const changed = !was || sections.length !== was.sections.length || read !== was.read || total !== was.total;
    const moved = place !== null && (this.progress.last?.page !== place.page || this.progress.last?.anchor !== place.anchor);
    if (!changed && !moved) return false;
    this.progress.pages[page] = { sections, total, read, at };
    if (moved && place) this.progress.last = { ...place, at };
    this.save();
    return true;
  }

  /** @param {number} exercise */
  solve(exercise) {
    if (this.progress.exercises.includes(exercise)) return false;
    this.progress.exercises = [...this.progress.exercises, exercise].sort((a, b) => a - b);
    this.save();
    return true;
  }

  /** Forgets everything; returns what was kept, for «Вернуть». */
  clear() {
    const old = this.progress;
    this.progress = emptyProgress();
    if (this.stored) {
      try {
        localStorage.removeItem(KEY);
      } catch {
        /* the marks are gone from the page; storage had none to write to */
      }
    }
    return old;
  }

  /** @param {Progress} progress */
  restore(progress) {
    this.progress = progress;
    this.save();
  }

  /** Whether there is anything to show. */
  get any() {
    return Object.keys(this.progress.pages).length > 0 || this.progress.exercises.length > 0;
  }
}
