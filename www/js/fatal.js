// @ts-check
// Fatal errors: a failed module load or a panic inside wasm, shown in a bar across the page
// with a reload button; after a panic no figure or exercise calls wasm again.

/** @param {string} message */
export function showFatal(message) {
  let bar = document.querySelector('.fatal');
  if (!bar) {
    bar = document.createElement('div');
    bar.className = 'fatal';
    bar.setAttribute('role', 'alert');
    document.body.prepend(bar);
  }
  bar.textContent = message;
  const reload = document.createElement('button');
  reload.textContent = 'Перезагрузить страницу';
  reload.addEventListener('click', () => location.reload());
  bar.append(reload);
}
let panicked = false;
/** Whether wasm has panicked (its state can no longer be trusted). */
export const hasPanicked = () => panicked;
// The Rust panic hook calls this.
globalThis.pgbookPanic = (/** @type {string} */ message) => {
  showFatal(`Внутренняя ошибка модуля WebAssembly: ${message}. Рисунки остановлены.`);
  document.querySelectorAll('figure.live').forEach((f) => f.classList.add('failed'));
  panicked = true;
};
