// @ts-check
// The pages of the one-file book (site/pgbook.html, scripts/onefile.mjs) are stored gzipped
// in base64, one `<script type="application/gzip" data-page="NAME">` each (about a fifth of
// their size as text): a page's `<template id="page-NAME">` and `<template id="contents-NAME">`,
// unpacked into the document beside their script when first asked for. A page load unpacks the
// page shown (js/onefile.js), the glossary the contents page's glossary, the search every page.
// The served book has no such script: nothing to unpack.

/** base64 to bytes without a string per byte. @param {string} text */
export function fromBase64(text) {
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Why nothing gzipped can be unpacked here, or null. */
export const NO_GUNZIP =
  typeof DecompressionStream === 'undefined'
    ? 'этот браузер не умеет распаковывать её (нужен браузер не старше 2023 года: Chrome, Edge, Firefox)'
    : null;

/** The bytes of gzipped base64 text, as a stream. @param {string} text */
export function gunzip(text) {
  if (NO_GUNZIP) throw new Error(NO_GUNZIP);
  return new Blob([fromBase64(text)]).stream().pipeThrough(new DecompressionStream('gzip'));
}

/** @returns {HTMLScriptElement[]} */
const packed = () => [...document.querySelectorAll(/** @type {'script'} */ ('script[type="application/gzip"][data-page]'))];

/** The pages the file carries, in the book's order. */
export const pageNames = () => packed().map((s) => s.dataset.page ?? '');

/** @type {Map<string, Promise<void>>} */
const unpacking = new Map();

/**
 * Unpacks the pages `names` (each once; a name the file lacks is skipped): resolves when their
 * templates are in the document.
 * @param {string[]} names
 */
export function unpackPages(names) {
  return Promise.all(
    names.map((name) => {
      let done = unpacking.get(name);
      if (!done) {
        const script = packed().find((s) => s.dataset.page === name);
        done = script
          ? new Response(gunzip(script.textContent ?? '')).text().then((html) => script.insertAdjacentHTML('afterend', html))
          : Promise.resolve();
        unpacking.set(name, done);
      }
      return done;
    }),
  ).then(() => undefined);
}
