// @ts-check
// «Копировать» beside a coding exercise's stub (lesson 11, scripts/code-exercises.mjs): the
// stub's text to the clipboard; where the browser refuses (no permission, an old browser), the
// text is selected instead, for Ctrl+C. The status beside the button says which.
export function wireCopyButtons() {
  document.querySelectorAll(/** @type {'button'} */ ('button.copy-code')).forEach((button) => {
    const status = button.nextElementSibling;
    button.addEventListener('click', async () => {
      const code = document.getElementById(button.dataset.copy ?? '');
      if (!code || !(status instanceof HTMLElement)) return;
      try {
        await navigator.clipboard.writeText(code.textContent ?? '');
        status.textContent = 'Скопировано в буфер обмена.';
      } catch {
        const range = document.createRange();
        range.selectNodeContents(code);
        const selection = getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
        status.textContent = 'Браузер не дал доступа к буферу обмена: заготовка выделена, нажмите Ctrl+C.';
      }
    });
  });
}
