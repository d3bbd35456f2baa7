// Cellar: a value found by searching (a foreign key into a table too long to list). As the person
// types, the field's <datalist> is filled with the matches its data-choices address answers (the
// browser's own list of suggestions, which keyboards and screen readers know); "Choose…" stays,
// and without this script it is how a value is found. Listened for on the document, so that a
// form opened in place later (editing mode's) is served too.
(() => {
  'use strict';
  const timers = new WeakMap();
  const asked = new WeakMap();
  const fieldOf = (target) => (target && target.closest ? target.closest('input[data-choices][list]') : null);
  const fill = async (input) => {
    const list = document.getElementById(input.getAttribute('list'));
    if (!list) return;
    const ask = (asked.get(input) || 0) + 1;
    asked.set(input, ask);
    try {
      const separator = input.dataset.choices.includes('?') ? '&' : '?';
      const response = await fetch(input.dataset.choices + separator + 'q=' + encodeURIComponent(input.value.trim()), {
        headers: { Accept: 'application/json' }, credentials: 'same-origin',
      });
      if (!response.ok || asked.get(input) !== ask) return;
      const { choices } = await response.json();
      if (asked.get(input) !== ask || !Array.isArray(choices)) return;
      list.replaceChildren(...choices.map((choice) => {
        const option = document.createElement('option');
        option.value = choice.value;
        option.label = choice.label;
        option.textContent = choice.label;
        return option;
      }));
    } catch (error) {
      // Offline or refused: the field still takes a key, and "Choose…" still lists matches.
    }
  };
  document.addEventListener('input', (event) => {
    const input = fieldOf(event.target);
    if (!input) return;
    clearTimeout(timers.get(input));
    timers.set(input, setTimeout(() => fill(input), 200));
  });
  document.addEventListener('focusin', (event) => {
    const input = fieldOf(event.target);
    const list = input && document.getElementById(input.getAttribute('list'));
    if (list && !list.children.length) fill(input);
  });
})();
