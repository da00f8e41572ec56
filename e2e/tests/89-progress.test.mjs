// @ts-check
// While a run is in its first (long) update, the status line says what is happening — never
// «Обучение не запущено.» under a running status.
import { it } from 'node:test';
import { forEachBrowser, assert } from '../harness.mjs';

forEachBrowser((env) => {
  it('during a long first update the line says which update is running', { timeout: 60_000 }, async (t) => {
    const link = 'lesson-06.html?form=ppo&profile=smoke&seeds=1&num_envs=64&num_steps=2048&minibatch_size=16384&hidden_sizes=256,256&num_updates=1&update_epochs=1';
    await env.withTab(link, { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.eval(() => {
        window.confirm = () => true;
      });
      await tab.clickButton('#trainer-ppo', 'Старт');
      assert((await tab.status('#trainer-ppo')) === 'running', 'the run started');
      const line = (await tab.text('#trainer-ppo .progress-text')) ?? '';
      assert(/идёт обновление 1 из 1/.test(line) && !/не запущено/.test(line), `line «${line}»`);
      await tab.clickButton('#trainer-ppo', 'Стоп');
      t.diagnostic(`${env.name}: ${line}`);
    });
  });
});
