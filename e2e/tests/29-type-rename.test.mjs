// @ts-check
// The page's types across the wasm boundary come from Rust (tsify writes the serde types into
// www/pkg/pgbook.d.ts), so renaming a Rust field must fail the page's type check. This builds a
// copy of the crate with one boundary field renamed (GreedyRow's `correct_answer`, which the
// sequence panel reads), writes its declarations with wasm-bindgen and runs tsc over a copy of
// the page's and the worker's modules: with the real declarations it passes, with the renamed
// one it fails on that field. No browser; the build (a debug wasm without optimisation, in
// target/type-rename, its own build directory) is the slow part: about two minutes the first
// time, seconds when only the crate changed.
import { it } from 'node:test';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, ROOT } from '../harness.mjs';

const WORK = join(ROOT, 'target', 'type-rename');
const CRATE = join(WORK, 'crate');
const FIELD = 'correct_answer';
const RENAMED = 'expected_answer';

/** @param {string} cmd @param {string[]} args @param {import('node:child_process').SpawnSyncOptions} [options] */
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ?? ''}` };
}

/** The crate's copy with GreedyRow's field renamed (the struct and the one place that builds it). */
function patchedCrate() {
  for (const d of ['src', 'www']) rmSync(join(CRATE, d), { recursive: true, force: true });
  mkdirSync(join(CRATE, 'tests'), { recursive: true });
  for (const f of ['Cargo.toml', 'Cargo.lock']) cpSync(join(ROOT, f), join(CRATE, f));
  cpSync(join(ROOT, 'src'), join(CRATE, 'src'), { recursive: true });
  // What the crate includes from www/ (lesson 10's Python, the theme's colours).
  for (const d of ['python', 'css']) cpSync(join(ROOT, 'www', d), join(CRATE, 'www', d), { recursive: true });
  // Cargo wants the manifest's test targets to exist; the build is --lib.
  for (const f of ['it.rs', 'wasm.rs']) writeFileSync(join(CRATE, 'tests', f), '');
  const file = join(CRATE, 'src', 'web', 'panel.rs');
  const text = readFileSync(file, 'utf8');
  const struct = /(struct GreedyRow \{[^}]*?)\bcorrect_answer: String,/;
  const built = /\bcorrect_answer: g\.correct_answer,/;
  assert(struct.test(text) && built.test(text), `src/web/panel.rs: GreedyRow's ${FIELD} is not where this test renames it`);
  writeFileSync(file, text.replace(struct, `$1${RENAMED}: String,`).replace(built, `${RENAMED}: g.${FIELD},`));
}

/** tsc over a copy of www/js with the declarations in `pkg`: the page's modules, then the worker's. @param {string} pkg */
function typeCheck(pkg) {
  const www = join(WORK, 'www');
  rmSync(www, { recursive: true, force: true });
  cpSync(join(ROOT, 'www', 'js'), join(www, 'js'), { recursive: true });
  // The figures-only module (pkg/pgbook_figures) carries no trainer type: the real one serves.
  cpSync(join(ROOT, 'www', 'pkg'), join(www, 'pkg'), { recursive: true });
  cpSync(pkg, join(www, 'pkg'), { recursive: true });
  const base = { allowJs: true, checkJs: false, noEmit: true, strict: true, target: 'es2022', skipLibCheck: true };
  const page = { ...base, module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2023', 'dom', 'dom.iterable'], types: [] };
  const worker = { ...base, module: 'esnext', moduleResolution: 'bundler', lib: ['es2023', 'webworker'], types: [] };
  writeFileSync(join(www, 'tsconfig.json'), JSON.stringify({ compilerOptions: page, include: ['js/*.js', 'js/*.d.ts'], exclude: ['js/worker.js'] }));
  writeFileSync(join(www, 'tsconfig.worker.json'), JSON.stringify({ compilerOptions: worker, files: ['js/worker.js'] }));
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  const pageCheck = run(tsc, ['-p', join(www, 'tsconfig.json')]);
  const workerCheck = run(tsc, ['-p', join(www, 'tsconfig.worker.json')]);
  return { ok: pageCheck.ok && workerCheck.ok, out: pageCheck.out + workerCheck.out };
}

it(`renaming a Rust boundary field (GreedyRow.${FIELD}) fails the page's type check`, { timeout: 1_200_000 }, () => {
  const real = join(ROOT, 'www', 'pkg');
  assert(existsSync(join(real, 'pgbook.d.ts')), 'www/pkg/pgbook.d.ts is missing: run scripts/build-wasm.sh first');
  const control = typeCheck(real);
  assert(control.ok, `tsc rejects the copy with the real declarations:\n${control.out}`);

  patchedCrate();
  const target = join(WORK, 'target');
  // Unoptimised and without debug info: only the declarations matter.
  const fast = ['profile.dev.opt-level=0', 'profile.dev.debug=false', 'profile.dev.package."*".opt-level=0'];
  const build = run('cargo', ['build', '--lib', '--target', 'wasm32-unknown-unknown', ...fast.flatMap((c) => ['--config', c])], {
    cwd: CRATE,
    env: { ...process.env, CARGO_TARGET_DIR: target },
  });
  assert(build.ok, `the patched crate does not build:\n${build.out.slice(-4000)}`);
  const pkg = join(WORK, 'pkg');
  rmSync(pkg, { recursive: true, force: true });
  const wasm = join(target, 'wasm32-unknown-unknown', 'debug', 'pgbook.wasm');
  const bindgen = run('wasm-bindgen', ['--target', 'web', '--out-dir', pkg, wasm]);
  assert(bindgen.ok, bindgen.out);
  const declared = readFileSync(join(pkg, 'pgbook.d.ts'), 'utf8');
  const row = /interface GreedyRow \{[^}]*\}/.exec(declared)?.[0] ?? '';
  assert(row.includes(`${RENAMED}:`) && !row.includes(`${FIELD}:`), `the declarations do not carry the rename:\n${row}`);

  const renamed = typeCheck(pkg);
  assert(!renamed.ok, 'tsc accepted the pages against the renamed field');
  assert(new RegExp(`error TS(2339|2551): Property '${FIELD}' does not exist`).test(renamed.out), `tsc failed, but not on ${FIELD}:\n${renamed.out}`);
});
