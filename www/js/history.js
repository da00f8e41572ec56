// @ts-check
// Finished runs kept in the browser (IndexedDB), so that a reload or another visit still has
// them. Every call rejects with a Russian message when storage is unavailable (private mode,
// quota, a blocked database): the panel says so and training goes on.

const DB_NAME = 'pgbook';
const STORE = 'runs';
export const MAX_KEPT = 12; // per trainer: the oldest go first
// What a saved run holds. Raise it whenever that changes, and teach readRecord to migrate the
// older records whose meaning is unchanged: everything in storage is input from another build.
// 2: a result row may carry its trainer's own columns (`extra`: the sequence lab's lengths, KL
// and entropy at the end); a version-1 run is the same run without them, shown without them.
export const FORMAT_VERSION = 2;

/**
 * A saved run: what a panel needs to show it again exactly as it ended.
 * @typedef {{
 *   id?: number, version?: number, kind: string, saved_at: string, seeds: number[], checked: any[], labels: string[],
 *   configs: { lines: string }[], infos: unknown[], policies: (string | null)[], times: { start: number, end: number }[],
 *   summary?: string, results?: any[], timing?: import('./run-progress.js').Timing,
 * }} SavedRun
 */

/**
 * A record that cannot be shown: listed with its reason and a Delete button.
 * @typedef {{ id: number | undefined, saved_at: string | null, problem: string }} BadRun
 */

/** @param {unknown} x @returns {x is Record<string, any>} */
const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
/** @param {unknown} x @param {(y: any) => boolean} each */
const arrayOf = (x, each) => Array.isArray(x) && x.every(each);
/** @param {unknown} x */
const isString = (x) => typeof x === 'string';
/** @param {unknown} x */
const isNumber = (x) => typeof x === 'number' && Number.isFinite(x);

/**
 * Today's shape of a saved run, checked as far as the panel and the prepared comparisons read it.
 * @param {Record<string, any>} r @param {string} kind
 */
function hasShape(r, kind) {
  const n = Array.isArray(r.checked) ? r.checked.length : 0;
  const jobs = n * (Array.isArray(r.seeds) ? r.seeds.length : 0);
  return (
    r.kind === kind &&
    isString(r.saved_at) &&
    Number.isFinite(Date.parse(r.saved_at)) &&
    arrayOf(r.seeds, isNumber) &&
    r.seeds.length > 0 &&
    n > 0 &&
    r.checked.every(
      (/** @type {unknown} */ c) =>
        isObject(c) &&
        isString(c.profile) &&
        isString(c.unit) &&
        arrayOf(c.seeds, isNumber) &&
        isNumber(c.total_per_seed) &&
        isNumber(c.steps_per_seed) &&
        arrayOf(c.set, (p) => Array.isArray(p) && p.length === 2 && isString(p[0]) && isString(p[1])),
    ) &&
    arrayOf(r.labels, isString) &&
    arrayOf(r.configs, (c) => isObject(c) && isString(c.lines)) &&
    r.configs.length === n &&
    Array.isArray(r.infos) &&
    r.infos.length === jobs &&
    arrayOf(r.policies, (p) => p === null || isString(p)) &&
    r.policies.length === jobs &&
    arrayOf(r.times, (t) => isObject(t) && isNumber(t.end)) &&
    (r.summary === undefined || isString(r.summary)) &&
    (r.results === undefined || arrayOf(r.results, (x) => isObject(x) && (x.extra === undefined || arrayOf(x.extra, isObject))))
  );
}

/**
 * One record read from storage, checked: a run the panel can show (migrated to today's format
 * where its meaning is unchanged), or why it cannot be. Never throws.
 * @param {unknown} raw @param {string} kind @returns {{ run: SavedRun } | { bad: BadRun }}
 */
export function readRecord(raw, kind) {
  const r = isObject(raw) ? raw : {};
  const id = isNumber(r.id) ? r.id : undefined;
  const savedAt = isString(r.saved_at) && Number.isFinite(Date.parse(r.saved_at)) ? r.saved_at : null;
  /** @param {string} problem */
  const bad = (problem) => ({ bad: { id, saved_at: savedAt, problem } });
  if (!isObject(raw)) return bad('повреждён');
  if (r.version === undefined) {
    // Saved before runs carried a version: the same meaning when it has today's shape.
    return hasShape(r, kind) ? { run: /** @type {SavedRun} */ ({ ...r, version: FORMAT_VERSION }) } : bad('сохранён другой версией книги');
  }
  if (r.version === 1) {
    // Version 1: the same record without the results' own columns.
    return hasShape(r, kind) ? { run: /** @type {SavedRun} */ ({ ...r, version: FORMAT_VERSION }) } : bad('повреждён');
  }
  if (r.version !== FORMAT_VERSION) return bad(isNumber(r.version) ? 'сохранён другой версией книги' : 'повреждён');
  return hasShape(r, kind) ? { run: /** @type {SavedRun} */ (r) } : bad('повреждён');
}

/** @param {unknown} e */
function storageError(e) {
  const name = e instanceof DOMException ? e.name : '';
  if (name === 'QuotaExceededError') return new Error('в хранилище браузера не хватает места');
  const detail = e instanceof Error ? e.message : String(e);
  // The book in one file, opened from disk: some browsers give such a page no storage at all.
  const why = location.protocol === 'file:' ? '; книга открыта из файла, а странице с диска браузер может не давать хранилища' : '';
  return new Error(`хранилище браузера недоступно (${detail || name || 'без объяснения'}${why})`);
}

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    let request;
    try {
      request = indexedDB.open(DB_NAME, 1);
    } catch (e) {
      reject(storageError(e));
      return;
    }
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
      store.createIndex('kind', 'kind');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(storageError(request.error));
    request.onblocked = () => reject(storageError(new Error('база занята другой вкладкой')));
  });
}

/**
 * One transaction on the store; resolves with `work`'s request result when it commits.
 * @template T
 * @param {IDBTransactionMode} mode @param {(store: IDBObjectStore) => IDBRequest<T>} work
 * @returns {Promise<T>}
 */
async function transact(mode, work) {
  const db = await open();
  return new Promise((resolve, reject) => {
    try {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => {
        db.close();
        resolve(request.result);
      };
      tx.onerror = () => {
        db.close();
        reject(storageError(tx.error));
      };
      tx.onabort = () => {
        db.close();
        reject(storageError(tx.error));
      };
    } catch (e) {
      db.close();
      reject(storageError(e));
    }
  });
}

/**
 * Everything stored for trainer `kind`, newest first: the runs that can be shown and the
 * records that cannot (another build's, damaged).
 * @param {string} kind @returns {Promise<{ runs: SavedRun[], bad: BadRun[] }>}
 */
export async function listStored(kind) {
  const records = /** @type {unknown} */ (await transact('readonly', (s) => s.index('kind').getAll(kind)));
  /** @type {SavedRun[]} */
  const runs = [];
  /** @type {BadRun[]} */
  const bad = [];
  for (const raw of Array.isArray(records) ? records : []) {
    const read = readRecord(raw, kind);
    if ('run' in read) runs.push(read.run);
    else bad.push(read.bad);
  }
  /** @param {{ id?: number }} a @param {{ id?: number }} b */
  const newest = (a, b) => (b.id ?? 0) - (a.id ?? 0);
  return { runs: runs.sort(newest), bad: bad.sort(newest) };
}

/** The saved runs of trainer `kind` that can be shown, newest first. @param {string} kind @returns {Promise<SavedRun[]>} */
export async function listRuns(kind) {
  return (await listStored(kind)).runs;
}

/** Saves a run, keeping at most MAX_KEPT of its trainer. @param {SavedRun} run @returns {Promise<number>} its id */
export async function saveRun(run) {
  const id = /** @type {number} */ (await transact('readwrite', (s) => s.add({ ...run, version: FORMAT_VERSION })));
  const all = await listRuns(run.kind);
  for (const old of all.slice(MAX_KEPT)) if (old.id !== undefined) await deleteRun(old.id);
  return id;
}

/** @param {number} id */
export async function deleteRun(id) {
  await transact('readwrite', (s) => s.delete(id));
}

/**
 * Records of another shape kept beside the runs (a class's codes: js/class.js), newest first.
 * @param {string} kind @returns {Promise<Record<string, any>[]>}
 */
export async function listRecords(kind) {
  const records = /** @type {unknown} */ (await transact('readonly', (s) => s.index('kind').getAll(kind)));
  return (Array.isArray(records) ? records : []).filter(isObject).sort((a, b) => (b.id ?? 0) - (a.id ?? 0));
}

/** Saves a record of another shape (its `kind` names it). @param {Record<string, any>} record @returns {Promise<number>} */
export async function saveRecord(record) {
  return /** @type {number} */ (await transact('readwrite', (s) => s.add(record)));
}
