// @ts-check
// The search (loaded by js/search-box.js on the box's first use): the book's sections — from
// search-docs.json in the served book (written by the build, cached offline by the service
// worker), from the pages' templates in the one-file book — indexed a few sections per task,
// then every keystroke answered with the best sections, each a highlighted snippet and a link
// to the section (highlighted on arrival: js/found.js). The keyboard: ↓ from the box to the
// results, ↑ ↓ between them, Enter follows one, Esc back to the box and closes the list.
import { buildIndex, search, stemWord, wordsOf } from './search-engine.js';
import { sectionsOf } from './search-text.js';
import { highlightArrival, noteFound } from './found.js';
import { ONE_FILE, pageLink } from './links.js';

/** @typedef {import('./search-engine.js').SearchDoc} SearchDoc */
/** @typedef {import('./search-engine.js').Hit} Hit */

/** The book's sections: from the one file's templates, or the served book's search-docs.json. @returns {Promise<SearchDoc[]>} */
async function loadDocs() {
  if (!ONE_FILE) {
    const response = await fetch('search-docs.json');
    if (!response.ok) throw new Error(`текст книги для поиска не получен (HTTP ${response.status})`);
    return response.json();
  }
  const { pageNames, unpackPages } = await import('./onefile-pages.js');
  await unpackPages(pageNames());
  /** @type {SearchDoc[]} */
  const docs = [];
  for (const template of document.querySelectorAll(/** @type {'template'} */ ('template[id^="page-"]'))) {
    const html = template.innerHTML;
    const title = (/<h1>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '').replace(/<[^>]*>/g, '');
    const page = template.id.slice('page-'.length);
    for (const s of sectionsOf(html.replace(/<h1>[\s\S]*?<\/h1>/, ''), title)) docs.push({ id: docs.length, page, title, ...s });
    await new Promise((resolve) => setTimeout(resolve, 0)); // a page per task
  }
  return docs;
}

/** «Урок 4. GAE и две маски» → «Урок 4»: where a result is, shortly. @param {SearchDoc} doc */
const where = (doc) => (doc.page === 'index' ? 'Оглавление' : (/^Урок \d+/.exec(doc.title)?.[0] ?? doc.title));

/** The words of a hit's section that matched (lower case), for the highlight on arrival. @param {Hit} hit */
const matchedWords = (hit) => {
  const stems = new Set(hit.terms);
  const words = new Set(wordsOf(`${hit.doc.heading} ${hit.doc.text}`).map((w) => w.word.toLowerCase()));
  return [...words].filter((w) => stems.has(stemWord(w))).slice(0, 50);
};

/** @param {HTMLInputElement} input */
export async function startSearch(input) {
  const panel = /** @type {HTMLElement} */ (document.getElementById('search-results'));
  const status = /** @type {HTMLElement} */ (document.getElementById('search-status'));
  const box = /** @type {HTMLElement} */ (input.closest('.search'));
  const list = document.createElement('ol');
  list.className = 'search-list';
  const note = document.createElement('p');
  note.className = 'search-note';
  panel.replaceChildren(note, list);

  /** @type {{ index: import('minisearch').default, docs: Map<number, SearchDoc> } | null} */
  let ready = null;
  /** @type {string | null} */
  let failed = null;

  const close = () => {
    panel.hidden = true;
  };
  /** @param {string} text */
  const say = (text) => {
    note.textContent = text;
    status.textContent = text;
  };

  const show = () => {
    const query = input.value.trim();
    list.replaceChildren();
    if (!query) {
      close();
      status.textContent = '';
      return;
    }
    panel.hidden = false;
    if (failed) return say(failed);
    if (!ready) return say('Поиск готовится…');
    const t0 = performance.now();
    const { hits, total, all } = search(ready.index, ready.docs, query);
    (window.pgbookSearchTimes ??= []).push(performance.now() - t0);
    const found = `Найдено разделов: ${total}${total > hits.length ? `, показаны ${hits.length} лучших` : ''}`;
    say(
      !hits.length
        ? `Ничего не найдено по запросу «${query}»`
        : all
          ? found
          : `${found} — со всеми словами запроса нет ни одного, это разделы с любым из них`,
    );
    for (const hit of hits) {
      const { doc } = hit;
      const a = document.createElement('a');
      a.href = pageLink(`${doc.page}.html`, new URLSearchParams(), doc.anchor);
      const place = document.createElement('span');
      place.className = 'search-where';
      place.textContent = doc.anchor ? `${where(doc)} · ${doc.heading}` : doc.title;
      const text = document.createElement('span');
      text.className = 'search-snippet';
      for (const piece of hit.pieces) {
        if (!piece.mark) text.append(piece.text);
        else {
          const mark = document.createElement('mark');
          mark.textContent = piece.text;
          text.append(mark);
        }
      }
      a.append(place, text);
      a.addEventListener('click', () => {
        noteFound({ page: doc.page, anchor: doc.anchor, words: matchedWords(hit) });
        close();
        // The same section again changes no fragment: highlight it once the link is followed.
        setTimeout(highlightArrival, 0);
      });
      const li = document.createElement('li');
      li.append(a);
      list.append(li);
    }
  };

  input.addEventListener('input', show);
  input.addEventListener('focus', () => input.value.trim() && show());
  const links = () => /** @type {HTMLAnchorElement[]} */ ([...list.querySelectorAll('a')]);
  box.addEventListener('keydown', (e) => {
    const all = links();
    const at = all.indexOf(/** @type {HTMLAnchorElement} */ (document.activeElement));
    if (e.key === 'Escape') {
      if (panel.hidden) return;
      e.preventDefault();
      close();
      input.focus();
    } else if (e.key === 'ArrowDown' && all.length) {
      e.preventDefault();
      if (panel.hidden) show();
      all[Math.min(at + 1, all.length - 1)].focus();
    } else if (e.key === 'ArrowUp' && at >= 0) {
      e.preventDefault();
      if (at === 0) input.focus();
      else all[at - 1].focus();
    }
  });
  // The list closes when the reader leaves the search for anything else.
  box.addEventListener('focusout', (e) => {
    if (!(e.relatedTarget instanceof Node && box.contains(e.relatedTarget))) close();
  });
  document.addEventListener('pointerdown', (e) => {
    if (!(e.target instanceof Node && box.contains(e.target))) close();
  });

  show();
  try {
    const t0 = performance.now();
    const docs = await loadDocs();
    const index = await buildIndex(docs);
    ready = { index, docs: new Map(docs.map((d) => [d.id, d])) };
    window.pgbookSearchBuilt = { sections: docs.length, ms: performance.now() - t0 };
  } catch (e) {
    failed = `Поиск недоступен: ${e instanceof Error ? e.message : e}`;
  }
  if (document.activeElement === input || input.value.trim()) show();
  box.dataset.ready = failed ? 'failed' : '1';
}
