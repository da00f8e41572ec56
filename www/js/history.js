// @ts-check
// Finished runs kept in the browser (IndexedDB), so that a reload or another visit still has
// them. Every call rejects with a Russian message when storage is unavailable (private mode,
// quota, a blocked database): the panel says so and training goes on.

const DB_NAME = 'pgbook';
const STORE = 'runs';
export const MAX_KEPT = 12; // per trainer: the oldest go first

/**
 * A saved run: what a panel needs to show it again exactly as it ended.
 * @typedef {{
 *   id?: number, kind: string, saved_at: string, seeds: number[], checked: any[], labels: string[],
 *   configs: { lines: string }[], infos: unknown[], policies: (string | null)[], times: { start: number, end: number }[],
 *   summary?: string, results?: any[],
 * }} SavedRun
 */

/** @param {unknown} e */
function storageError(e) {
  const name = e instanceof DOMException ? e.name : '';
  if (name === 'QuotaExceededError') return new Error('в хранилище браузера не хватает места');
  const detail = e instanceof Error ? e.message : String(e);
  return new Error(`хранилище браузера недоступно (${detail || name || 'без объяснения'})`);
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

/** The saved runs of trainer `kind`, newest first. @param {string} kind @returns {Promise<SavedRun[]>} */
export async function listRuns(kind) {
  const runs = /** @type {SavedRun[]} */ (await transact('readonly', (s) => s.index('kind').getAll(kind)));
  return runs.sort((a, b) => (b.id ?? 0) - (a.id ?? 0));
}

/** Saves a run, keeping at most MAX_KEPT of its trainer. @param {SavedRun} run @returns {Promise<number>} its id */
export async function saveRun(run) {
  const id = /** @type {number} */ (await transact('readwrite', (s) => s.add(run)));
  const all = await listRuns(run.kind);
  for (const old of all.slice(MAX_KEPT)) if (old.id !== undefined) await deleteRun(old.id);
  return id;
}

/** @param {number} id */
export async function deleteRun(id) {
  await transact('readwrite', (s) => s.delete(id));
}
