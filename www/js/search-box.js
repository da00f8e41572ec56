// @ts-check
// The search box in every page's header: `/` focuses it, and its first focus loads the search
// (js/search.js: the library, the book's text, the index), so a page that nobody searches
// loads none of it.
import { wireArrival } from './found.js';

/** Whether a key pressed in `target` is typing (a `/` there is text, not the shortcut). @param {EventTarget | null} target */
const typing = (target) => target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

export function wireSearchBox() {
  wireArrival();
  const input = document.getElementById('search-input');
  if (!(input instanceof HTMLInputElement)) return;
  /** @type {Promise<void> | null} */
  let loading = null;
  const load = () => {
    loading ??= import('./search.js').then(
      (m) => m.startSearch(input),
      (e) => {
        const status = document.getElementById('search-status');
        if (status) status.textContent = `Поиск не загрузился: ${e instanceof Error ? e.message : e}`;
      },
    );
  };
  input.addEventListener('focus', load);
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    e.preventDefault();
    input.focus();
    input.select();
  });
}
