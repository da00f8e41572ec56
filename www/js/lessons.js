// The table of contents: one entry per lesson page, in reading order.
export const LESSONS = [
  { file: 'lesson-05.html', title: 'PPO: отношение вероятностей и клиппирование' },
];
