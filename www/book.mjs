// @ts-check
// The book's pages in reading order: one entry per page. A lesson is its body in
// pages/<file> plus its entry here; the build generates everything around the body.
export const BOOK_TITLE = 'Градиенты политики: от REINFORCE к PPO';

/** @typedef {{ file: string, title: string }} Lesson */

/** @type {Lesson[]} */
export const LESSONS = [
  { file: 'lesson-01.html', title: 'Логарифмическая производная и REINFORCE' },
  { file: 'lesson-02.html', title: 'Траектории, накопленная награда и дисконт' },
  { file: 'lesson-03.html', title: 'Опорные уровни: от константы до RLOO' },
  { file: 'lesson-04.html', title: 'GAE и две маски' },
  { file: 'lesson-05.html', title: 'PPO: отношение вероятностей и клиппирование' },
  { file: 'lesson-06.html', title: 'Полный PPO на CartPole' },
  { file: 'lesson-07.html', title: 'Авторегрессионные ответы: сдвиг, маска, редукция' },
  { file: 'lesson-08.html', title: 'Маленький эксперимент: RLOO и PPO для последовательностей' },
  { file: 'lesson-grpo.html', title: 'GRPO и его поправки' },
  { file: 'lesson-09.html', title: 'Выводы и упражнения' },
];
