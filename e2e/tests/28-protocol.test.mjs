// @ts-check
// The page ↔ worker messages are typed on both sides: what a step adds for the panel (`extra`)
// and where a running step is (`progress`) are unions tsc checks (www/js/protocol.js, from the
// Rust side's serde types), so a misspelt field does not compile. No browser needed.
import { it } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, ROOT } from '../harness.mjs';

const PROTOCOL = join(ROOT, 'www', 'js', 'protocol.js');

/** tsc's verdict on a module that reads a message's fields with `body`. @param {string} body */
function check(body) {
  const dir = mkdtempSync(join(tmpdir(), 'pgbook-protocol-'));
  try {
    const file = join(dir, 'reader.mjs');
    writeFileSync(
      file,
      `// @ts-check
/** @typedef {import('${PROTOCOL}').FromWorker} FromWorker */
/** @param {FromWorker} m */
export function read(m) {
${body}
}
`,
    );
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const args = ['--noEmit', '--allowJs', '--checkJs', '--strict', '--target', 'es2022', '--module', 'nodenext', '--skipLibCheck', '--types', 'node', file];
    const r = spawnSync(tsc, args, { encoding: 'utf8' });
    return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it("tsc accepts the messages' fields as the Rust side names them and rejects a misspelt one", { timeout: 120_000 }, () => {
  const right = check(`  if (m.type === 'update' && m.extra.panel === 'cartpole') return m.extra.episode?.length ?? m.extra.update;
  if (m.type === 'update' && m.extra.panel === 'sequence') return m.extra.first_batch?.[0]?.sequence ?? m.extra.greedy[0]?.correct_answer;
  if (m.type === 'progress' && m.progress.stage.stage === 'minibatch') return m.progress.stage.minibatches * m.progress.fraction;
  return m.type === 'progress' && m.progress.stage.stage === 'rollout' ? m.progress.stage.done : null;`);
  assert(right.ok, right.out);
  for (const [field, body] of [
    ['epsiode', `  return m.type === 'update' && m.extra.panel === 'cartpole' ? m.extra.epsiode : null;`],
    ['first_bacth', `  return m.type === 'update' && m.extra.panel === 'sequence' ? m.extra.first_bacth : null;`],
    ['minibatchs', `  return m.type === 'progress' && m.progress.stage.stage === 'minibatch' ? m.progress.stage.minibatchs : null;`],
    ['greedy (of a CartPole step)', `  return m.type === 'update' && m.extra.panel === 'cartpole' ? m.extra.greedy : null;`],
  ]) {
    const wrong = check(body);
    assert(!wrong.ok && /error TS(2339|2551)/.test(wrong.out), `tsc accepted ${field}: ${wrong.out}`);
  }
});

it('the generated declarations name each type once, and no export returns or takes `any`', async () => {
  const { readFileSync } = await import('node:fs');
  for (const module of ['pgbook', 'pgbook_figures']) {
    const dts = readFileSync(join(ROOT, 'www', 'pkg', `${module}.d.ts`), 'utf8');
    // Two Rust types of one name would be two `interface X` that TypeScript silently merges.
    const names = [...dts.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    const twice = names.filter((n, i) => names.indexOf(n) !== i);
    assert(twice.length === 0, `${module}.d.ts declares ${twice.join(', ')} more than once`);
    const loose = dts
      .split('\n')
      // Exports and class methods; the raw ABI table (`readonly …`) and doc comments are not API.
      .filter((l) => !/^\s*(\*|\/\*\*|readonly )/.test(l) && /\(.*\)\s*:.*\bany\b|\bany\b.*=>/.test(l))
    assert(loose.length === 0, `${module}.d.ts exports typed \`any\`:\n${loose.join('\n')}`);
    // `to_js` writes Rust maps as plain objects: a declared `Map` would be a lie tsc believes.
    const maps = dts.split('\n').filter((l) => /\bMap</.test(l) && !/^\s*\*/.test(l));
    assert(maps.length === 0, `${module}.d.ts declares a Map where the page gets an object:\n${maps.join('\n')}`);
  }
});

it('the generated declarations are whole: tsc checks them without skipping library files, so every type they name is declared', { timeout: 120_000 }, () => {
  // The page's tsconfig skips .d.ts files (skipLibCheck): a field typed with a Rust name that
  // tsify did not declare would silently become `any` there.
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  const dir = mkdtempSync(join(tmpdir(), 'pgbook-dts-'));
  try {
    for (const module of ['pgbook', 'pgbook_figures']) {
      const project = join(dir, `${module}.json`);
      const compilerOptions = { noEmit: true, strict: true, target: 'es2022', lib: ['esnext', 'dom'], types: [], skipLibCheck: false };
      writeFileSync(project, JSON.stringify({ compilerOptions, files: [join(ROOT, 'www', 'pkg', `${module}.d.ts`)] }));
      const r = spawnSync(tsc, ['-p', project], { encoding: 'utf8' });
      assert(r.status === 0, `${module}.d.ts:\n${r.stdout}${r.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
