// @ts-check
// The glossary at a touch: a lesson's term links (written by the build, scripts/glossary.mjs)
// show the term's definition in a popover without leaving the page — on hover, on keyboard
// focus, or on a first tap (a second tap follows the link to the glossary). As WCAG 2.2 asks
// of content on hover or focus (1.4.13): Esc dismisses it, the pointer can move onto it, and it
// stays until the pointer or focus leaves, Esc, or a tap elsewhere.
import { ONE_FILE } from './links.js';

/** How long the pointer may take to cross from a term onto its popover (ms). */
const GRACE_MS = 300;

/**
 * Where a term's definition is: the page's own copy (<template id="glossary-defs">, written by
 * the build), or in the one-file book the contents page's glossary (its template holds each
 * entry once). Returns the term's name and the definition's nodes, or null.
 * @returns {((id: string) => { name: Node[], text: Node[] } | null) | null}
 */
function definitions() {
  const own = document.getElementById('glossary-defs');
  if (own instanceof HTMLTemplateElement)
    return (id) => {
      const def = own.content.querySelector(`[data-term="${CSS.escape(id)}"]`);
      return def?.firstElementChild && def.lastElementChild
        ? { name: [...def.firstElementChild.childNodes], text: [...def.lastElementChild.childNodes] }
        : null;
    };
  const index = document.getElementById('page-index');
  if (index instanceof HTMLTemplateElement)
    return (id) => {
      const dt = index.content.getElementById(`term-${id}`);
      const dd = dt?.nextElementSibling;
      return dt && dd ? { name: [...dt.childNodes], text: [...dd.childNodes] } : null;
    };
  return null;
}

/** Resolves once the page's terms show their definitions (the one file unpacks its contents page first). */
export async function wireGlossary() {
  if (!document.querySelector('main a.term')) return;
  // Only the one file has packed pages; the served book does not load the module at all.
  if (ONE_FILE) await import('./onefile-pages.js').then((m) => m.unpackPages(['index'])).catch(() => {}); // the page says why it did not open
  const lookup = definitions();
  if (!lookup) return;
  const tip = document.createElement('div');
  tip.id = 'term-popover';
  tip.className = 'term-popover';
  tip.setAttribute('role', 'tooltip');
  tip.hidden = true;
  document.body.append(tip);

  /** The term whose definition is shown. @type {HTMLAnchorElement | null} */
  let shown = null;
  let hideTimer = 0;
  /** The term a touch went down on (its click shows, not follows, the first time), and whether it was shown then. @type {HTMLAnchorElement | null} */
  let touched = null;
  let touchedShown = false;

  /** @param {HTMLAnchorElement} term */
  const show = (term) => {
    clearTimeout(hideTimer);
    if (shown === term && !tip.hidden) return;
    const def = lookup(term.dataset.term ?? '');
    if (!def) return;
    hide();
    const name = document.createElement('p');
    name.className = 'term-name';
    name.append(...def.name.map((n) => n.cloneNode(true)));
    const text = document.createElement('p');
    text.append(...def.text.map((n) => n.cloneNode(true)));
    tip.replaceChildren(name, text);
    tip.hidden = false;
    shown = term;
    term.setAttribute('aria-describedby', tip.id);
    place(term);
  };
  const hide = () => {
    clearTimeout(hideTimer);
    tip.hidden = true;
    shown?.removeAttribute('aria-describedby');
    shown = null;
  };
  const hideSoon = () => {
    clearTimeout(hideTimer);
    hideTimer = window.setTimeout(hide, GRACE_MS);
  };
  /** Below the term, or above it where the window ends; within the page's width. @param {HTMLElement} term */
  const place = (term) => {
    const r = term.getBoundingClientRect();
    tip.style.left = '0px';
    tip.style.top = '0px';
    const width = tip.offsetWidth;
    const height = tip.offsetHeight;
    const left = Math.max(8, Math.min(r.left, document.documentElement.clientWidth - width - 8));
    const below = r.bottom + 6 + height <= innerHeight || r.top - 6 - height < 0;
    tip.style.left = `${left + scrollX}px`;
    tip.style.top = `${(below ? r.bottom + 6 : r.top - 6 - height) + scrollY}px`;
  };
  /** @param {EventTarget | null} t @returns {HTMLAnchorElement | null} */
  const termOf = (t) => (t instanceof Element ? /** @type {HTMLAnchorElement | null} */ (t.closest('a.term[data-term]')) : null);

  document.addEventListener('pointerover', (e) => {
    if (e.pointerType === 'touch') return;
    const term = termOf(e.target);
    if (term) show(term);
    else if (e.target instanceof Node && tip.contains(e.target)) clearTimeout(hideTimer);
  });
  document.addEventListener('pointerout', (e) => {
    if (e.pointerType === 'touch' || !shown) return;
    const from = e.target instanceof Node && (shown.contains(e.target) || tip.contains(e.target));
    const to = e.relatedTarget instanceof Node && (shown.contains(e.relatedTarget) || tip.contains(e.relatedTarget));
    if (from && !to && document.activeElement !== shown) hideSoon();
  });
  document.addEventListener('focusin', (e) => {
    const term = termOf(e.target);
    if (term) show(term);
    else if (shown) hide();
  });
  document.addEventListener('focusout', (e) => {
    if (termOf(e.target) === shown && !(e.relatedTarget instanceof Node && tip.contains(e.relatedTarget))) hideSoon();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && shown && !tip.hidden) {
      e.preventDefault();
      hide();
    }
  });
  // Touch: the first tap on a term shows its definition; a second tap on it follows the link;
  // a tap anywhere else closes it.
  document.addEventListener('pointerdown', (e) => {
    touched = e.pointerType === 'touch' ? termOf(e.target) : null;
    touchedShown = touched !== null && touched === shown && !tip.hidden;
    if (shown && !(e.target instanceof Node && (shown.contains(e.target) || tip.contains(e.target)))) hide();
  });
  document.addEventListener('click', (e) => {
    const term = termOf(e.target);
    if (!term || term !== touched) return;
    touched = null;
    if (touchedShown) return; // the second tap: follow the link
    e.preventDefault();
    show(term);
  });
  addEventListener('resize', () => shown && place(shown));
}
