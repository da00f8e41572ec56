// What the page puts on `window` for the Rust panic hook and the page tests.
// The module the page loaded (js/core.js): the figures-only one or the whole core, which has
// every function of the former.
type PgbookWasm = typeof import('../pkg/pgbook_figures.js');

interface Window {
  /** Figure name → redraw durations in ms. */
  pgbookTimings: Record<string, number[]>;
  /** Main-thread tasks over 50 ms. */
  pgbookLongTasks: number[];
  pgbookWasm: PgbookWasm;
  /** What the trainer panels collected (trainers.js). */
  pgbookRuns: any;
  /** The trainer panels by kind (trainers.js). */
  pgbookPanels: any;
  /** Set by the page tests only. */
  pgbookWorkersCreated: number;
  /** The one-file book's compiled wasm modules and what starts its trainers' worker (onefile.js). */
  pgbookWasmModules?: Record<string, Promise<WebAssembly.Module>>;
  pgbookNewWorker?: () => Worker;
  pgbookOldPage?: boolean;
  /** The search's index: how many sections, how long it took from the first focus (search.js). */
  pgbookSearchBuilt?: { sections: number; ms: number };
  /** Each query's time in ms (search.js; e2e/bench-search.mjs reads them). */
  pgbookSearchTimes?: number[];
  pgbookRunWorkers?: number;
  pgbookDownload?: Promise<{ name: string; text: string }> | null;
}

// eslint-disable-next-line no-var
declare var pgbookPanic: (message: string) => void;
