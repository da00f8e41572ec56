// @ts-check
/**
 * Pages that were renamed: old file → new file. The build writes a redirect page under each old
 * name (its query and fragment kept: run links and bookmarks made before still arrive), and the
 * one-file book maps an old fragment (`#lesson-04/…`) to the new page.
 * @type {Readonly<Record<string, string>>}
 */
export const MOVED = {
  'lesson-01.html': 'reinforce.html',
  'lesson-02.html': 'returns.html',
  'lesson-03.html': 'baselines.html',
  'lesson-04.html': 'gae.html',
  'lesson-05.html': 'clipping.html',
  'lesson-06.html': 'ppo.html',
  'lesson-07.html': 'tokens.html',
  'lesson-08.html': 'sequences.html',
  'lesson-grpo.html': 'grpo.html',
  'lesson-09.html': 'exercises.html',
};
