// @ts-check
// What the build adds around every page so that a reader finds things (issue 40): an id on
// every section heading (h2, h3), the contents beside the page (every lesson, the current
// one's sections — a sidebar on a wide screen, a menu on a phone: js/contents.js), the search
// box (js/search-box.js) and the link that skips to the text. Generated from book.mjs and the
// pages' headings: no page is edited by hand for it.

/** @param {string} s */
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Russian letters in Latin ones, for readable anchors («Три способа закончиться» → tri-sposoba-zakonchitsya). */
const LATIN = Object.fromEntries(
  (
    'а:a б:b в:v г:g д:d е:e ё:e ж:zh з:z и:i й:y к:k л:l м:m н:n о:o п:p р:r с:s т:t у:u ф:f х:kh ц:ts ч:ch ш:sh щ:shch ъ: ы:y ь: э:e ю:yu я:ya ' +
    'α:alpha β:beta γ:gamma δ:delta ε:epsilon θ:theta λ:lambda π:pi ρ:rho σ:sigma'
  )
    .split(' ')
    .map((p) => p.split(':')),
);
/** Words of a heading that make its anchor. */
const SLUG_WORDS = 5;

/**
 * A heading's anchor from its text: Latin letters, digits and dashes, its first few words.
 * @param {string} html the heading's content (TeX formulas and tags are left out)
 */
export function slug(html) {
  const text = html
    .replace(/<span class="math">[\s\S]*?<\/span>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[#\w]+;/g, ' ')
    .toLowerCase();
  const words = [...text]
    .map((c) => LATIN[c] ?? c)
    .join('')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.slice(0, SLUG_WORDS).join('-') || 'section';
}

/** A section heading of a page: its level (2, 3), anchor and content (HTML). @typedef {{ level: number, id: string, html: string }} Heading */

/**
 * Gives every h2 and h3 of a page's body that has none an id made from its text (unique on
 * the page), and returns the page's headings in order.
 * @param {string} html @returns {{ html: string, headings: Heading[] }}
 */
export function headingIds(html) {
  const taken = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
  /** @type {Heading[]} */
  const headings = [];
  const out = html.replace(/<h([23])((?:\s[^>]*)?)>([\s\S]*?)<\/h\1>/g, (whole, level, attrs, content) => {
    let id = /\sid="([^"]+)"/.exec(attrs)?.[1];
    if (!id) {
      const base = slug(content);
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
      taken.add(id);
      attrs = `${attrs} id="${id}"`;
    }
    headings.push({ level: Number(level), id, html: content.trim() });
    return `<h${level}${attrs}>${content}</h${level}>`;
  });
  return { html: out, headings };
}

/** @param {Heading[]} headings */
function outline(headings) {
  /** @type {string[]} */
  const items = [];
  let open = false; // a list of h3s under the last h2 is open
  for (const h of headings) {
    const link = `<a href="#${h.id}" data-anchor="${h.id}">${h.html}</a>`;
    if (h.level === 3 && items.length) {
      if (!open) items[items.length - 1] = items[items.length - 1].replace(/<\/li>$/, '\n<ol>');
      open = true;
      items.push(`<li>${link}</li>`);
      continue;
    }
    if (open) items.push('</ol></li>');
    open = false;
    items.push(`<li>${link}</li>`);
  }
  if (open) items.push('</ol></li>');
  return `<ol class="outline">\n${items.join('\n')}\n</ol>`;
}

/**
 * The contents beside a page: the contents page, then every lesson (its number and title; the
 * page shown marked with aria-current and opened to its sections). js/contents.js marks the
 * section in view, what the reader has read (js/progress.js) and makes it a menu on a phone.
 * @param {{ file: string, title: string }[]} lessons @param {string} current this page's file
 * @param {Heading[]} headings this page's sections
 */
export function contentsNav(lessons, current, headings) {
  const entry = (/** @type {string} */ file, /** @type {string} */ label) => {
    const here = file === current;
    const page = file.replace(/\.html$/, '');
    return `<li data-page="${page}"${here ? ' class="here"' : ''}><a href="${file}"${here ? ' aria-current="page"' : ''}>${label}</a>${here && headings.length ? `\n${outline(headings)}` : ''}</li>`;
  };
  const items = [
    entry('index.html', 'Оглавление'),
    ...lessons.map((l, i) => entry(l.file, `<span class="number">${i + 1}.</span> ${escapeHtml(l.title)}`)),
  ];
  return `<nav class="contents" id="contents" aria-label="Содержание книги">
<div class="contents-head"><p class="contents-title" id="contents-title">Содержание</p><button type="button" class="contents-close" aria-label="Закрыть содержание">×</button></div>
<ol class="lessons">
${items.join('\n')}
</ol>
<div class="progress-box" data-progress hidden><p class="progress-status"></p><button type="button" class="progress-clear">Забыть, что прочитано</button></div>
<p class="visually-hidden progress-announce" role="status"></p>
</nav>`;
}

/** The header's part of the finding tools: the contents' menu button (a phone) and the search box. */
export const HEADER_TOOLS = `<button type="button" class="contents-toggle" aria-controls="contents" aria-expanded="false">Содержание</button>`;
export const SEARCH_BOX = `<div class="search" role="search"><label for="search-input" class="visually-hidden">Поиск по книге</label><input type="search" id="search-input" placeholder="Поиск по книге" maxlength="200" autocomplete="off" spellcheck="false" aria-keyshortcuts="/" aria-controls="search-results" aria-describedby="search-help"><kbd class="search-key" aria-hidden="true">/</kbd><p class="visually-hidden" id="search-help">Результаты появляются по мере ввода; стрелка вниз переходит к ним, Esc закрывает.</p><p class="visually-hidden" id="search-status" role="status"></p><div class="search-results" id="search-results" hidden></div></div>`;
/** The first thing on every page for a keyboard: past the header and contents to the text. */
export const SKIP_LINK = '<a class="skip-link" href="#main">Перейти к тексту</a>';
