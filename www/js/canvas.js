// @ts-check
// The page sizes every canvas's backing store (CSS size × devicePixelRatio) and wasm draws
// into it without reading the layout: a layout read in a redraw, after the redraw before it
// changed the page (a slider's output, a table), forces a reflow of the whole lesson. The CSS
// size is read once per canvas and then kept up to date by a ResizeObserver, which also asks
// for a redraw when it changes.

/** @type {WeakMap<Element, { width: number, height: number }>} */
const cssSize = new WeakMap();
/** @type {WeakMap<Element, () => void>} */
const onResize = new WeakMap();
/** Every canvas given a backing store, for a redraw of them all (a theme change). @type {Set<HTMLCanvasElement>} */
const fitted = new Set();

const observer = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const box = entry.contentBoxSize?.[0];
    const size = box
      ? { width: box.inlineSize, height: box.blockSize }
      : { width: entry.contentRect.width, height: entry.contentRect.height };
    // Hidden (printing shows an image of it instead, a closed panel): keep the drawing.
    if (!size.width || !size.height) continue;
    const old = cssSize.get(entry.target);
    cssSize.set(entry.target, size);
    if (old && (old.width !== size.width || old.height !== size.height)) onResize.get(entry.target)?.();
  }
});

/**
 * Gives `canvas` a backing store of its CSS size × devicePixelRatio (a canvas not laid out,
 * e.g. hidden, gets 0 × 0, which wasm refuses with a message). `redraw` is called when the
 * canvas's CSS size changes later.
 * @param {HTMLCanvasElement} canvas @param {() => void} redraw
 */
export function fitCanvas(canvas, redraw) {
  let size = cssSize.get(canvas);
  if (!size) {
    size = { width: canvas.clientWidth, height: canvas.clientHeight };
    cssSize.set(canvas, size);
    observer.observe(canvas);
  }
  onResize.set(canvas, redraw);
  fitted.add(canvas);
  const width = Math.round(size.width * devicePixelRatio);
  const height = Math.round(size.height * devicePixelRatio);
  // Assigning width or height clears the canvas even when unchanged: only on a change.
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
}

/** Redraws every canvas on the page, figures and trainers alike, e.g. in a new theme's colours. */
export function redrawEvery() {
  for (const canvas of fitted) {
    if (canvas.isConnected) onResize.get(canvas)?.();
    else fitted.delete(canvas);
  }
}
