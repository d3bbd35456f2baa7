// Cellar: editing mode (?editing=1). Every control is a form that works without this file. With
// it: Escape cancels a row's form in place, Alt+ArrowUp and Alt+ArrowDown move the focused row,
// and the control that made a change has the focus back once the list comes back from the 303.
'use strict';
(() => {
  const main = document.querySelector('main');
  if (!main || !main.querySelector('.editing-toolbar .editing-done')) return;
  const key = 'cellar-editing-focus';
  document.addEventListener('submit', (event) => {
    const form = event.target.closest('.editing-buttons');
    const button = event.submitter;
    const row = form && form.closest('[id^="row-"]');
    if (!row || !button) return;
    try { sessionStorage.setItem(key, JSON.stringify({ row: row.id, value: button.value })); } catch (_) {}
  });
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) || 'null');
    sessionStorage.removeItem(key);
    const row = saved && document.getElementById(saved.row);
    if (row) {
      const same = Array.from(row.querySelectorAll('button')).find((b) => b.value === saved.value);
      (same || row.querySelector('button, a')).focus();
    }
  } catch (_) {}
  const undo = main.querySelector('.editing-undo button');
  if (undo && !document.activeElement.closest('main')) undo.focus();
  const open = main.querySelector('.editing-form');
  if (open) {
    const first = open.querySelector('[aria-invalid="true"], .field-input, .field-switch');
    if (first) first.focus();
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      const form = event.target.closest && event.target.closest('.editing-form');
      const cancel = form && form.querySelector('.editing-cancel');
      if (cancel) { event.preventDefault(); location.href = cancel.href; }
      return;
    }
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const row = event.target.closest && event.target.closest('[id^="row-"]');
    const button = row && row.querySelector(`.editing-move[value="${event.key === 'ArrowUp' ? 'up' : 'down'}"]`);
    if (button) { event.preventDefault(); button.click(); }
  });
})();
