// Runs every e2e test module (e2e/tests/*.mjs, each exporting `tests`) against one server and
// one browser; prints "N passed, M failed" and exits non-zero on any failure.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startServer, launch } from './harness.mjs';

const only = process.argv[2];
const dir = join(ROOT, 'e2e', 'tests');
const files = readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort();
const server = await startServer();
const browser = await launch();
let passed = 0, failed = 0;
try {
  for (const file of files) {
    const { tests } = await import(join(dir, file));
    for (const t of tests) {
      const name = `${file.replace('.mjs', '')} › ${t.name}`;
      if (only && !name.includes(only)) continue;
      const t0 = Date.now();
      try {
        const note = await t.run({ browser, url: server.url });
        passed++;
        console.log(`ok   ${name} (${Date.now() - t0} ms)${note ? ` — ${note}` : ''}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${name} (${Date.now() - t0} ms)\n     ${String(e.stack || e).split('\n').join('\n     ')}`);
      }
    }
  }
} finally {
  await browser.close();
  server.stop();
}
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
