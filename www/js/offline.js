// @ts-check
// Registers the service worker that keeps the book readable offline, and offers the reader a
// reload when a new build of the book has been cached beside the one on screen.

/** @param {ServiceWorker} waiting */
function offerUpdate(waiting) {
  if (document.querySelector('.update-ready')) return;
  const bar = document.createElement('div');
  bar.className = 'update-ready';
  bar.setAttribute('role', 'status');
  bar.textContent = 'Вышла новая версия книги, она уже сохранена для чтения без сети. ';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Перейти на новую версию';
  button.addEventListener('click', () => {
    button.disabled = true;
    // The page reloads once the new build controls it (see controllerchange below).
    sessionStorage.setItem('pgbook-updating', '1');
    waiting.postMessage('activate-new-build');
  });
  bar.append(button);
  document.body.prepend(bar);
}

export function registerOffline() {
  if (!('serviceWorker' in navigator)) return;
  const sw = navigator.serviceWorker;
  sw.addEventListener('controllerchange', () => {
    // The first install takes control of an open page without a reload; a new build reloads
    // it, so that nothing of the old build stays in memory beside the new one.
    if (sessionStorage.getItem('pgbook-updating')) {
      sessionStorage.removeItem('pgbook-updating');
      location.reload();
    }
  });
  sw.register(new URL('../sw.js', import.meta.url)).then(
    (registration) => {
      if (!registration) return; // service workers blocked (a test browser)
      /** @param {ServiceWorker | null} worker */
      const watch = (worker) => {
        if (!worker) return;
        const check = () => {
          if (worker.state === 'installed' && sw.controller) offerUpdate(worker);
        };
        check();
        worker.addEventListener('statechange', check);
      };
      watch(registration.waiting ?? registration.installing);
      registration.addEventListener('updatefound', () => watch(registration.installing));
    },
    // Without a service worker the book still works online: say so in the console only.
    (e) => console.warn(`service worker not registered: ${e?.message ?? e}`),
  );
}
