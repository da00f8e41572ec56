// @ts-check
// The run-link codec: a configuration as a link writes it (`full;gamma=0.99`) and back; the
// panels and the lessons' prepared comparisons share it.

/** A configuration: a profile and the settings that differ from it. @typedef {{ profile: string, set: [string, string][] }} Config */

/** A link's configuration (`full;gamma=0.99;hidden_sizes=64,64`): the profile, then overrides. @param {string} text @returns {Config} */
export function parseConfig(text) {
  const [profile, ...pairs] = text.split(';');
  /** @type {[string, string][]} */
  const set = pairs
    .filter((p) => p)
    .map((p) => {
      const k = p.indexOf('=');
      return k < 0 ? [p, ''] : [p.slice(0, k), p.slice(k + 1)];
    });
  return { profile, set };
}

/** A configuration as a link writes it. @param {Config} c */
export function configText(c) {
  return [c.profile, ...c.set.map(([k, v]) => `${k}=${v}`)].join(';');
}
