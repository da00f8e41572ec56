// @ts-check
// The book's pages in reading order: one entry per page. A lesson is its body in
// pages/<file> plus its entry here; the build generates everything around the body.
export const BOOK_TITLE = 'Градиенты политики: от REINFORCE к PPO';

/** @typedef {{ file: string, title: string }} Lesson */

/** @type {Lesson[]} */
export const LESSONS = [
  { file: 'reinforce.html', title: 'Логарифмическая производная и REINFORCE' },
  { file: 'returns.html', title: 'Траектории, накопленная награда и дисконт' },
  { file: 'baselines.html', title: 'Опорные уровни: от константы до RLOO' },
  { file: 'gae.html', title: 'GAE и две маски' },
  { file: 'clipping.html', title: 'PPO: отношение вероятностей и клиппирование' },
  { file: 'ppo.html', title: 'Полный PPO на CartPole' },
  { file: 'tokens.html', title: 'Авторегрессионные ответы: сдвиг, маска, редукция' },
  { file: 'sequences.html', title: 'Маленький эксперимент: RLOO и PPO для последовательностей' },
  { file: 'grpo.html', title: 'GRPO и его поправки' },
  { file: 'r1zero.html', title: 'R1-Zero во вкладке' },
  { file: 'exercises.html', title: 'Выводы и упражнения' },
];

// Renamed pages' old addresses (the one-file book's start imports the map too).
export { MOVED } from './js/moved.js';
