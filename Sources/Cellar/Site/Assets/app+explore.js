// Cellar: exploring a database list. The filter form's conditions narrowed to the chosen
// column's kind; without this the form shows every kind's conditions in groups, and the server
// refuses a condition that does not fit the column (a 400 that says which do).
(() => {
  'use strict';
  for (const form of document.querySelectorAll('form.filter')) {
    const column = form.querySelector('select[name="filter_column"]');
    const condition = form.querySelector('select[name="filter_op"]');
    if (!column || !condition || !condition.querySelector('optgroup[data-kind]')) continue;
    const narrow = () => {
      const chosen = column.selectedOptions[0];
      const kind = chosen ? chosen.dataset.kind : undefined;
      let first = null;
      for (const group of condition.querySelectorAll('optgroup[data-kind]')) {
        const fits = group.dataset.kind === kind;
        group.hidden = !fits;
        group.disabled = !fits;
        if (fits && !first) first = group.querySelector('option');
      }
      const current = condition.selectedOptions[0];
      if (first && (!current || current.parentElement.disabled)) first.selected = true;
    };
    column.addEventListener('change', narrow);
    narrow();
  }
})();
