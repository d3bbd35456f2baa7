// Cellar: editing mode (?editing=1). Every control is a form that works without this file (a POST
// answered 303). With it, while the list's event stream is open, each change is a fetch of the
// same form with `Prefer: return=minimal`, answered 204 with the change's sequence
// (Cellar-Change-Sequence): the page changes only when the stream's batch with that sequence
// arrives (no double patch), then the change is announced in the live region and the focus kept
// on the row. A refusal (409, 422, 403) is shown in the row. A row's form opens in place, and
// while it is open no batch replaces it (app.js holds it): a change by someone else is said in
// the form. Escape cancels a form, Alt+ArrowUp and Alt+ArrowDown move the focused row.
'use strict';
(() => {
  const main = document.querySelector('main');
  if (!main || !main.querySelector('.editing-toolbar .editing-done')) return;
  const liveRegion = document.getElementById('live');
  const announce = (text) => { if (liveRegion) liveRegion.textContent = text; };
  // The stream must be open for a change to come back through it; otherwise forms post as without a script.
  const streaming = () => !!window.fetch && document.documentElement.dataset.liveStream === 'open';
  const rowOf = (element) => element && element.closest && element.closest('[id^="row-"], [id^="insert-"]');

  // Batches seen (app.js's 'cellar:batch'), for a change whose 204 arrives after its batch.
  const recent = [];
  const waiters = [];
  document.addEventListener('cellar:batch', (event) => {
    recent.push(event.detail);
    if (recent.length > 32) recent.shift();
    for (const waiter of [...waiters]) {
      if (event.detail.id >= waiter.sequence) { waiters.splice(waiters.indexOf(waiter), 1); waiter.resolve(event.detail); }
    }
  });
  // The batch that shows the change numbered `sequence`; null when none comes (the change
  // altered nothing this window shows) within a few seconds.
  function batchShowing(sequence) {
    const seen = recent.find((batch) => batch.id >= sequence);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const waiter = { sequence, resolve };
      waiters.push(waiter);
      setTimeout(() => { const at = waiters.indexOf(waiter); if (at >= 0) { waiters.splice(at, 1); resolve(null); } }, 4000);
    });
  }

  // Names only the page without a script reads (a form open, an Undo) leave the address.
  function cleanAddress() {
    const url = new URL(location.href);
    ['_edit', '_insert', '_undo'].forEach((name) => url.searchParams.delete(name));
    if (url.href !== location.href) history.replaceState(history.state, '', url.href);
  }

  // Forms open in place: the row's element as it was (to put back on Cancel) and what the stream
  // made of the row meanwhile (app.js's 'cellar:held-row').
  const open = new Map();
  function hold(element, original) {
    element.setAttribute('data-live-hold', '');
    open.set(element.id, { original, latest: null, removed: false, saving: false });
  }
  function release(element, replacement) {
    const state = open.get(element.id);
    open.delete(element.id);
    element.removeAttribute('data-live-hold');
    if (state && state.removed) { element.remove(); return null; }
    const row = replacement || (state && (state.latest || state.original));
    if (row) element.replaceWith(row); else location.reload();
    return row;
  }
  const versionIn = (element) => { const input = element && element.querySelector('input[name="_version"]'); return input ? input.value : null; };

  document.addEventListener('cellar:held-row', (event) => {
    const element = event.target;
    const state = open.get(element.id) || (hold(element, null), open.get(element.id));
    state.removed = event.detail.removed;
    state.latest = event.detail.row;
    if (state.saving || !element.matches('.editing-open')) return; // the save's own answer decides
    if (!state.removed && versionIn(state.latest) === versionIn(element)) return; // moved, not changed
    let note = element.querySelector('.editing-changed');
    if (!note) {
      note = Object.assign(document.createElement('p'), { className: 'editing-changed' });
      note.setAttribute('role', 'status');
      element.querySelector('form').prepend(note);
    }
    note.textContent = state.removed
      ? 'Deleted by someone else: saving cannot bring it back. Cancel to see the list as it is.'
      : 'Changed by someone else since you opened it: Save will be refused and show the row as it is now. Cancel to see it.';
  });

  // A row's form and a section's insert row, opened in place from the page the link names.
  async function openInPlace(link) {
    const id = decodeURIComponent(new URL(link.href).hash.slice(1));
    const current = document.getElementById(id);
    if (!current) return false;
    const response = await fetch(link.href, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const page = document.createElement('template');
    page.innerHTML = await response.text(); // inert: nothing in a template runs or loads
    const form = page.content.getElementById(id);
    if (!form || !current.isConnected) return false;
    current.replaceWith(form);
    hold(form, current);
    focusField(form);
    return true;
  }
  const focusField = (element) => {
    const field = element.querySelector('[aria-invalid="true"], .field-input, .field-switch');
    if (field) field.focus();
  };

  // Cancel puts the row back as the stream last had it; a form the page opened itself, with
  // nothing to put back, is left to its link.
  function cancel(element) {
    const state = open.get(element.id);
    if (!state || !(state.original || state.latest || state.removed)) return false;
    const row = release(element);
    cleanAddress();
    const target = row && row.querySelector('.editing-edit, .editing-add, button, a[href]');
    if (target) target.focus();
    return true;
  }

  // What a refusal says, in the row: the row (or insert row) as the answer shows it, with its
  // message (409: the row as it is now beside the values sent; 422: each field's message), or the
  // answer's message in a notice of the row's own.
  async function refused(response, element) {
    const page = document.createElement('template');
    page.innerHTML = await response.text();
    const answer = page.content.getElementById(element.id);
    if (answer && answer.querySelector('.editing-notice')) {
      const state = open.get(element.id);
      element.replaceWith(answer);
      if (answer.matches('.editing-open, .editing-insert')) {
        answer.setAttribute('data-live-hold', '');
        open.set(answer.id, { original: state && state.original, latest: null, removed: false, saving: false });
        focusField(answer);
      } else {
        const first = answer.querySelector('button, a[href]');
        if (first) first.focus();
      }
      return;
    }
    const said = page.content.querySelector('.editing-notice, main p, main h1');
    const text = (said && said.textContent.trim()) || `The change was refused (HTTP ${response.status}).`;
    showNotice(element, text);
  }
  function showNotice(element, text) {
    let notice = element.querySelector(':scope .editing-notice');
    if (!notice) {
      notice = Object.assign(document.createElement('div'), { className: 'editing-notice' });
      notice.setAttribute('role', 'alert');
      const form = element.querySelector('form');
      if (form && form.matches('.editing-form')) form.prepend(notice); else (element.querySelector('td:last-child') || element).append(notice);
    }
    notice.textContent = text;
  }

  // The Undo a delete leaves, in the live region's place above the list: one at a time.
  function offerUndo(token, action) {
    main.querySelectorAll('.editing-undo').forEach((old) => old.remove());
    const form = Object.assign(document.createElement('form'), { className: 'editing-undo', method: 'post', action });
    form.setAttribute('role', 'status');
    const text = Object.assign(document.createElement('span'), { textContent: 'Row deleted.' });
    const fields = [['_do', 'undo'], ['_token', token]].map(([name, value]) => Object.assign(document.createElement('input'), { type: 'hidden', name, value }));
    const button = Object.assign(document.createElement('button'), { className: 'button', type: 'submit', textContent: 'Undo' });
    form.append(text, ' ', ...fields, button);
    main.querySelector('.editing-toolbar').after(form);
    setTimeout(() => { if (form.isConnected && !form.contains(document.activeElement)) form.remove(); }, 60000);
  }

  // Sends a change; returns once the page shows it, or says why not.
  async function send(form, submitter, extra = {}) {
    const body = new URLSearchParams(new FormData(form, submitter));
    for (const [name, value] of Object.entries(extra)) body.set(name, value);
    const change = body.get('_do') || '';
    const element = rowOf(form) || form;
    if (element.getAttribute('aria-busy') === 'true') return;
    element.setAttribute('aria-busy', 'true');
    const state = open.get(element.id);
    if (state) state.saving = true;
    const next = element.nextElementSibling;
    const neighbour = next && next.id.startsWith('row-') ? next : element.previousElementSibling || next;
    const value = submitter && submitter.value;
    let response;
    try {
      response = await fetch(form.action, {
        method: 'POST', body, credentials: 'same-origin', headers: { Prefer: 'return=minimal', Accept: 'text/html' },
      });
    } catch (error) {
      element.removeAttribute('aria-busy');
      if (state) state.saving = false;
      showNotice(element, `The change could not be sent (${error.message}). Try again.`);
      return;
    }
    if (response.status !== 204) {
      element.removeAttribute('aria-busy');
      if (state) state.saving = false;
      await refused(response, element);
      return;
    }
    const sequence = Number(response.headers.get('Cellar-Change-Sequence')) || 0;
    const undo = response.headers.get('Cellar-Undo');
    const batch = await batchShowing(sequence);
    element.removeAttribute('aria-busy');
    cleanAddress();
    // The control `selector` names in `row`, or its first: one that shows (at phone width the
    // row's buttons may be in its closed menu, whose summary then has the focus).
    const focus = (row, selector) => {
      if (!row || !row.isConnected) return;
      const shown = (element) => element.getClientRects().length > 0;
      const target = [...row.querySelectorAll(selector), ...row.querySelectorAll('summary, button, a[href]')].find(shown);
      if (target) target.focus();
    };
    if (change === 'delete') {
      if (undo) offerUndo(undo, form.action);
      announce(undo ? 'Row deleted. Undo' : 'Row deleted.');
      if (!main.contains(document.activeElement) || document.activeElement === document.body) {
        focus(neighbour && document.getElementById(neighbour.id), '.editing-delete');
      }
    } else if (change === 'undo') {
      form.remove();
      announce('Row restored');
      focus(batch && batch.added.length ? document.getElementById(batch.added[0]) : null, '.editing-delete');
    } else if (change === 'save') {
      const row = release(element);
      announce('Row saved');
      focus(row, '.editing-edit');
    } else if (change === 'insert') {
      const row = release(element);
      announce('Row added');
      const added = batch && batch.added.length ? document.getElementById(batch.added[batch.added.length - 1]) : null;
      focus(added || row, '.editing-edit');
    } else if (change === 'up' || change === 'down' || change === 'move') {
      announce('Row moved');
      const row = document.getElementById(element.id);
      if (row && !row.contains(document.activeElement)) focus(row, `button[value="${CSS.escape(String(value))}"]`);
    } else {
      announce(batch && batch.removed.includes(element.id) ? 'Row removed' : 'Row changed');
      const row = document.getElementById(element.id) || (neighbour && document.getElementById(neighbour.id));
      if (row && !row.contains(document.activeElement)) focus(row, `button[value="${CSS.escape(String(value))}"]`);
    }
  }

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!form.matches('.editing-buttons, .editing-form, .editing-undo') || !streaming()) return;
    event.preventDefault();
    send(form, event.submitter);
  });

  document.addEventListener('click', (event) => {
    const link = event.target.closest && event.target.closest('a.editing-edit, a.editing-add, a.editing-cancel');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.matches('.editing-cancel')) {
      const element = rowOf(link);
      if (element && cancel(element)) event.preventDefault();
      return;
    }
    if (!streaming()) return;
    event.preventDefault();
    openInPlace(link).then((opened) => { if (!opened) location.href = link.href; }, () => { location.href = link.href; });
  });

  // At phone width a row's buttons are a menu: their <details>, which the page sends open (a row of
  // buttons on a wide screen), closed here, and in the rows a batch brings, unless the focus is in it.
  const phone = window.matchMedia('(max-width: 480px)');
  const fold = (menus) => menus.forEach((menu) => { if (!menu.contains(document.activeElement)) menu.open = !phone.matches; });
  fold(main.querySelectorAll('.editing-menu'));
  phone.addEventListener('change', () => fold(main.querySelectorAll('.editing-menu')));
  document.addEventListener('cellar:batch', (event) => {
    const { added, changed, moved } = event.detail;
    for (const id of [...added, ...changed, ...moved]) {
      const row = document.getElementById(id);
      if (row) fold(row.querySelectorAll('.editing-menu'));
    }
  });

  // Drag to reorder, by the row's handle (pointer events: mouse, pen and touch alike): a line
  // shows where the row would go; the drop sends `_do=move` with the row it was dropped before or
  // after, and the row moves when the stream's batch says so. Without the stream the drop posts
  // the form as a page would.
  document.documentElement.classList.add('editing-script');
  let drag = null;
  const clearDrop = () => main.querySelectorAll('.editing-drop-before, .editing-drop-after')
    .forEach((row) => row.classList.remove('editing-drop-before', 'editing-drop-after'));
  main.addEventListener('pointerdown', (event) => {
    const handle = event.target.closest && event.target.closest('.editing-drag');
    const row = rowOf(handle);
    if (!row || event.button !== 0 || !row.querySelector('.editing-buttons')) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    drag = { row, beside: null, after: false };
    row.classList.add('editing-dragging');
  });
  main.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const under = document.elementsFromPoint(event.clientX, event.clientY).map(rowOf)
      .find((row) => row && row !== drag.row && row.id.startsWith('row-') && !row.hasAttribute('data-live-hold'));
    clearDrop();
    drag.beside = under || null;
    if (!under) return;
    const box = under.getBoundingClientRect();
    drag.after = event.clientY > box.top + box.height / 2;
    under.classList.add(drag.after ? 'editing-drop-after' : 'editing-drop-before');
  });
  const endDrag = () => { if (drag) drag.row.classList.remove('editing-dragging'); clearDrop(); drag = null; };
  main.addEventListener('pointercancel', endDrag);
  main.addEventListener('pointerup', () => {
    if (!drag) return;
    const { row, beside, after } = drag;
    endDrag();
    if (!beside) return;
    const form = row.querySelector('.editing-buttons');
    const extra = { _do: 'move', [after ? '_after' : '_before']: decodeURIComponent(beside.id.slice(4)) };
    if (streaming()) { send(form, null, extra); return; }
    for (const [name, value] of Object.entries(extra)) form.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value }));
    form.submit();
  });

  // Without the stream (the page as a 303 left it): the control that made the change has the focus back.
  const key = 'cellar-editing-focus';
  document.addEventListener('submit', (event) => {
    const form = event.target.closest('.editing-buttons');
    const row = form && rowOf(form);
    if (!row || !event.submitter || event.defaultPrevented) return;
    try { sessionStorage.setItem(key, JSON.stringify({ row: row.id, value: event.submitter.value })); } catch (_) {}
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
  // A form the page opened (`_edit`, `_insert`, or a refusal): held while open.
  for (const element of main.querySelectorAll('.editing-open, .editing-insert')) {
    if (element.querySelector('.editing-form')) hold(element, null);
  }
  const first = main.querySelector('.editing-form');
  if (first) focusField(first);

  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      const form = event.target.closest && event.target.closest('.editing-form');
      const link = form && form.querySelector('.editing-cancel');
      if (!link) return;
      event.preventDefault();
      const element = rowOf(form);
      if (!(element && cancel(element))) location.href = link.href;
      return;
    }
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const row = rowOf(event.target);
    const button = row && row.querySelector(`.editing-move[value="${event.key === 'ArrowUp' ? 'up' : 'down'}"]`);
    if (button) { event.preventDefault(); button.click(); }
  });
})();
