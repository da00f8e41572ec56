// @ts-check
// Lesson 10's exercises: the core checks every answer and explains it in Russian.
import { core } from './core.js';
import { messageOf } from './dom.js';
import { hasPanicked } from './fatal.js';

/** @typedef {import('../pkg/pgbook_figures.js').Check} Verdict wasm's check_exercise (src/lessons/exercises/check.rs) */
export function wireExercises() {
  document.querySelectorAll(/** @type {'form'} */ ('form[data-exercise]')).forEach((form) => {
    const feedback = form.querySelector('[data-feedback]');
    // A field's label is a formula, which has no accessible name in every browser: the field
    // is named by its number (the one the feedback quotes) and the formula's text.
    form.querySelectorAll(/** @type {'input'} */ ('input[type=text]')).forEach((field, i) => {
      const formula = field.closest('label')?.querySelector('math');
      const text = formula
        ? [...formula.querySelectorAll('mi, mn, mo, mtext')]
            .map((m) => m.textContent)
            .join('')
            .replace(/[\u2061-\u2064]/g, '')
        : '';
      field.setAttribute('aria-label', `Поле ${i + 1}${text ? `: ${text}` : ''}`);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!(feedback instanceof HTMLElement) || hasPanicked()) return;
      const options = [...form.querySelectorAll(/** @type {'input'} */ ('input[name=option]'))];
      const fields = [...form.querySelectorAll(/** @type {'input'} */ ('input[type=text]'))];
      const answers = options.length ? options.filter((o) => o.checked).map((o) => o.value) : fields.map((f) => f.value);
      /** @type {Verdict} */
      let verdict;
      try {
        verdict = core.check_exercise(Number(form.dataset.exercise), answers);
      } catch (e) {
        feedback.textContent = `Не удалось проверить ответ: ${messageOf(e)}`;
        feedback.className = 'feedback wrong';
        return;
      }
      feedback.textContent = verdict.message;
      feedback.className = `feedback ${verdict.correct ? 'right' : 'wrong'}`;
      form.dataset.checked = verdict.correct ? 'right' : 'wrong';
      // The reader's progress (contents.js) counts the exercises solved.
      form.dispatchEvent(
        new CustomEvent('exercise-checked', {
          bubbles: true,
          detail: { exercise: Number(form.dataset.exercise), correct: verdict.correct },
        }),
      );
      // Choice: a wrong answer opens only the explanations of the options judged wrong, so the
      // reader can think again about the rest; a right one opens every explanation.
      options.forEach((o, i) => {
        const item = o.closest('li');
        const why = item?.querySelector('[data-why]');
        const open = verdict.correct || !verdict.items[i];
        if (why instanceof HTMLElement) why.hidden = !open;
        item?.classList.toggle('judged-right', verdict.correct);
        item?.classList.toggle('judged-wrong', !verdict.items[i]);
      });
      fields.forEach((f, i) => f.setAttribute('aria-invalid', String(!verdict.items[i])));
    });
  });
}
