// Cellar: a value found by searching (a foreign key into a table too long to list). As the person
// types, the field's <datalist> is filled with the matches its data-choices address answers (the
// browser's own list of suggestions, which keyboards and screen readers know); "Choose…" stays,
// and without this script it is how a value is found.
(() => {
  'use strict';
  for (const input of document.querySelectorAll('input[data-choices][list]')) {
    const list = document.getElementById(input.getAttribute('list'));
    if (!list) continue;
    let timer = 0;
    let asked = 0;
    const fill = async () => {
      const term = input.value.trim();
      const ask = ++asked;
      try {
        const separator = input.dataset.choices.includes('?') ? '&' : '?';
        const response = await fetch(input.dataset.choices + separator + 'q=' + encodeURIComponent(term), {
          headers: { Accept: 'application/json' }, credentials: 'same-origin',
        });
        if (!response.ok || ask !== asked) return;
        const { choices } = await response.json();
        if (ask !== asked || !Array.isArray(choices)) return;
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
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(fill, 200);
    });
    input.addEventListener('focus', () => { if (!list.children.length) fill(); }, { once: true });
  }
})();
