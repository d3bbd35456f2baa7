// Cellar: progressive enhancement for list pages. Everything works without this file:
// "Load more" is an ordinary link to the next page. With it, the next rows are fetched as an
// HTML fragment and appended in place, and the URL is kept in step so reload and Back show
// the same rows. No inline styles, no eval (CSP: script-src 'self'; style-src 'self').
'use strict';
(() => {
  const main = document.querySelector('main');
  if (!main || !window.fetch || !('content' in document.createElement('template'))) return;
  const startPager = main.querySelector('nav.pager');
  const startFirst = Number(startPager && startPager.dataset.first);
  const startOffset = startFirst > 0 ? startFirst - 1
    : Math.max(0, Number(new URL(location.href).searchParams.get('offset')) || 0);
  let busy = false, observer = null;

  const fmt = (n) => Number(n).toLocaleString('en');

  function fragmentURL(link) {
    if (link.dataset.fragmentUrl) return link.dataset.fragmentUrl;
    const url = new URL(link.href, location.href);
    url.searchParams.set('fragment', 'rows'); return url.href;
  }

  async function fetchFragment(url) {
    const response = await fetch(url, { headers: { 'HX-Request': 'true', Accept: 'text/html' }, credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const template = document.createElement('template');
    template.innerHTML = await response.text(); // inert: nothing in a template runs or loads
    return template.content;
  }

  function showError(message) {
    clearErrors();
    const alert = Object.assign(document.createElement('div'), { className: 'alert alert-error', textContent: message });
    alert.setAttribute('role', 'alert');
    alert.dataset.loadError = '';
    const live = document.getElementById('live');
    if (live) live.before(alert); else main.append(alert);
  }
  const clearErrors = () => main.querySelectorAll('[data-load-error]').forEach((el) => el.remove());

  const rowSelector = 'ul.rows > li, tbody.rows > tr.cell';
  const announce = (text) => { const live = document.getElementById('live'); if (live) live.textContent = text; };

  // Appends each fragment section's rows to the page's section with the same data-section, the
  // section's identifier: its number, or what its rows are grouped by when each page numbers
  // its sections from 0. So a page whose first section continues the group the page ends
  // with adds its rows to that group. A section the page does not have is added whole, before
  // the pager. A row already on the page (the list moved under us) is not added twice, and a
  // section's own ids are its identifier's, so no id is left twice. Returns the first new row.
  function mergeSections(fragment, anchor) {
    const table = main.querySelector('table.columns');
    if (table) return mergeTableSections(fragment, table);
    let firstRow = null;
    for (const section of fragment.querySelectorAll('section.table-section')) {
      const key = section.dataset.section;
      const selector = key === undefined ? null : `[data-section="${CSS.escape(key)}"]`;
      const target = selector && (main.querySelector(`ul.rows${selector}`) || main.querySelector(`section.table-section${selector} ul.rows`));
      const all = [...section.querySelectorAll('ul.rows > li')];
      const rows = all.filter((li) => !li.id || !document.getElementById(li.id));
      if (!firstRow && rows.length) firstRow = rows[0];
      if (target) {
        target.append(...rows);
      } else if (rows.length || !all.length) {
        all.filter((li) => !rows.includes(li)).forEach((li) => li.remove());
        anchor.before(section);
      }
    }
    return firstRow;
  }

  // The columns layout: each section is a <tbody class="rows"> (its footer a <tbody> after it)
  // of the page's one table; a fragment's rows join the section with the same data-section.
  function mergeTableSections(fragment, table) {
    let firstRow = null;
    for (const body of fragment.querySelectorAll('tbody.rows')) {
      const key = body.dataset.section;
      const target = key === undefined ? null : table.querySelector(`tbody.rows[data-section="${CSS.escape(key)}"]`);
      const footer = body.nextElementSibling && body.nextElementSibling.matches('tbody.section-footer') ? body.nextElementSibling : null;
      const rows = [...body.querySelectorAll('tr.cell')].filter((tr) => !tr.id || !document.getElementById(tr.id));
      if (!firstRow && rows.length) firstRow = rows[0];
      if (target) {
        target.append(...rows);
      } else {
        body.querySelectorAll('tr.cell').forEach((tr) => { if (!rows.includes(tr)) tr.remove(); });
        table.append(body);
        if (footer) table.append(footer);
      }
    }
    return firstRow;
  }

  function keepURLInStep(pager) {
    const last = Number(pager && pager.dataset.last);
    const shown = last > startOffset ? last - startOffset : main.querySelectorAll(rowSelector).length;
    const url = new URL(location.href);
    url.searchParams.delete('fragment');
    url.searchParams.set('offset', String(startOffset));
    url.searchParams.set('limit', String(shown));
    history.replaceState(history.state, '', url.href);
  }

  async function loadMore(link, moveFocus) {
    if (busy) return;
    busy = true;
    const oldPager = link.closest('nav.pager') || main.querySelector('nav.pager');
    main.setAttribute('aria-busy', 'true');
    link.setAttribute('aria-disabled', 'true');
    try {
      const fragment = await fetchFragment(fragmentURL(link));
      const newPager = fragment.querySelector('nav.pager');
      // A live batch may have replaced the pager while the rows were fetched.
      const pager = oldPager && oldPager.isConnected ? oldPager : main.querySelector('nav.pager');
      const anchor = pager || document.getElementById('live') || main.lastChild;
      const firstRow = mergeSections(fragment, anchor);
      if (newPager) {
        const { first, last, total } = newPager.dataset;
        const current = newPager.querySelector('[aria-current="page"]');
        if (current && last && total) current.textContent = `Rows ${fmt(startOffset + 1)}–${fmt(last)} of ${fmt(total)}`;
        if (pager) pager.replaceWith(newPager); else anchor.before(newPager);
        if (first && last && total) announce(`Rows ${fmt(first)}–${fmt(last)} of ${fmt(total)} loaded`);
      } else { link.remove(); announce('All rows loaded'); }
      clearErrors();
      keepURLInStep(newPager);
      if (moveFocus) {
        const target = (firstRow && firstRow.querySelector('a[href]')) || main.querySelector('a.load-more');
        if (target) target.focus();
      }
      watchPager();
      document.dispatchEvent(new Event('cellar:rows-loaded'));
    } catch (error) {
      link.removeAttribute('aria-disabled');
      showError(`Could not load more rows (${error.message}). Try again, or follow the link.`);
    } finally {
      main.removeAttribute('aria-busy');
      busy = false;
    }
  }

  document.addEventListener('click', (event) => {
    const link = event.target.closest && event.target.closest('a.load-more');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    loadMore(link, true);
  });

  // Infinite scroll: load the next rows when the pager comes into view.
  function watchPager() {
    if (!document.querySelector('[data-infinite-scroll]') || !('IntersectionObserver' in window)) return;
    if (observer) observer.disconnect();
    const pager = main.querySelector('nav.pager');
    if (!pager || !pager.querySelector('a.load-more')) return;
    observer = new IntersectionObserver((entries) => {
      const link = pager.querySelector('a.load-more');
      if (entries.some((e) => e.isIntersecting) && link && !busy && !main.querySelector('[data-load-error]')) loadMore(link, false);
    }, { rootMargin: '0px 0px 400px 0px' });
    observer.observe(pager);
  }

  // Loading placeholders: replace each with the fragment its data-loading-src names.
  async function fillPlaceholder(placeholder) {
    placeholder.setAttribute('aria-busy', 'true');
    try {
      const fragment = await fetchFragment(placeholder.dataset.loadingSrc);
      const newPager = fragment.querySelector('nav.pager');
      const oldPager = main.querySelector('nav.pager');
      if (newPager && oldPager && !placeholder.contains(oldPager)) oldPager.replaceWith(newPager);
      if (placeholder.closest('ul')) placeholder.replaceWith(...fragment.querySelectorAll('ul.rows > li'));
      else placeholder.replaceWith(fragment);
      watchPager();
    } catch (error) {
      placeholder.removeAttribute('aria-busy');
      placeholder.classList.replace('loading', 'alert');
      placeholder.classList.add('alert', 'alert-error');
      placeholder.setAttribute('role', 'alert');
      placeholder.textContent = `Could not load this content (${error.message}).`;
    }
  }

  document.querySelectorAll('[data-loading-src]').forEach(fillPlaceholder);
  watchPager();

  // Live lists: the page's own URL, asked for as an EventSource (Accept: text/event-stream),
  // sends a batch of <turbo-stream> elements whenever the rows it shows change. Each is
  // applied here (Turbo's actions on #row-{id}, no Turbo needed), keeping focus and the
  // scroll position, announcing the batch politely and marking changed rows for a moment.
  // A hidden tab closes its stream (browsers allow six connections per site) and reopens
  // it with its last event id when shown again, so it is sent exactly what it missed.
  const live = { source: null, lastEventId: '' };
  const calm = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  function streamURL() {
    const url = new URL(location.href);
    url.hash = '';
    url.searchParams.delete('fragment');
    url.searchParams.delete('_last-event-id');
    if (live.lastEventId) url.searchParams.set('_last-event-id', live.lastEventId);
    return url.href;
  }

  function openStream() {
    closeStream();
    const source = new EventSource(streamURL());
    // The page's state for a person reading it with tools (and the browser tests): open, or retrying.
    source.onopen = () => { document.documentElement.dataset.liveStream = 'open'; };
    source.onerror = () => { document.documentElement.dataset.liveStream = 'retrying'; };
    source.onmessage = (event) => {
      if (event.lastEventId) live.lastEventId = event.lastEventId;
      applyBatch(event.data, event.lastEventId);
    };
    live.source = source;
  }
  function closeStream() {
    if (live.source) { live.source.close(); live.source = null; }
    document.documentElement.dataset.liveStream = 'closed';
  }

  function mark(row) {
    if (calm() || !row || !row.classList) return;
    row.classList.remove('row-changed');
    void row.offsetWidth; // restarts the animation for a row marked twice
    row.classList.add('row-changed');
    setTimeout(() => row.classList.remove('row-changed'), 2000);
  }

  // The first row at least partly on screen, and where it is: put back there after the batch.
  function scrollAnchor() {
    for (const row of main.querySelectorAll('ul.rows > li[id], tbody.rows > tr[id]')) {
      const { top, bottom } = row.getBoundingClientRect();
      if (bottom > 0) return { id: row.id, top };
    }
    return null;
  }

  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

  // A row someone is editing in place (data-live-hold: editing mode's open form) is never replaced
  // under their cursor: it stays, and after the batch it is sent a 'cellar:held-row' event with
  // what the batch would have made of it (the new row, or removed: true), for its script to tell.
  function holdRow(held, changes, row) {
    changes.set(held, { row, removed: !row });
  }
  function tellHeld(changes, id) {
    for (const [held, change] of changes) {
      held.dispatchEvent(new CustomEvent('cellar:held-row', { bubbles: true, detail: { ...change, batch: Number(id) || 0 } }));
    }
  }

  function applyBatch(data, eventId) {
    const parsed = document.createElement('template');
    parsed.innerHTML = data; // inert: nothing in a template runs or loads
    const streams = [...parsed.content.querySelectorAll('turbo-stream')];
    if (!streams.length) return;
    if (streams.some((s) => s.getAttribute('action') === 'refresh')) { refreshRows(); return; }
    const focused = document.activeElement;
    const focusRow = focused && focused.closest && focused.closest('li[id], tr[id]');
    const focusHref = focused && focused.getAttribute && focused.getAttribute('href');
    const anchor = scrollAnchor();
    const pager = main.querySelector('nav.pager');
    const removed = new Set(), added = new Set(), changed = new Set(), heldChanges = new Map();
    for (const stream of streams) {
      const action = stream.getAttribute('action');
      const target = stream.getAttribute('target');
      const selector = stream.getAttribute('targets');
      const targets = target !== null ? [document.getElementById(target)].filter(Boolean)
        : selector ? [...main.querySelectorAll(selector)] : [];
      const template = stream.querySelector('template');
      for (const element of targets) {
        const content = template ? template.content.cloneNode(true) : null;
        const row = content && content.firstElementChild;
        const holds = element.hasAttribute('data-live-hold');
        if (action === 'remove') { if (holds) holdRow(element, heldChanges, null); else { removed.add(element.id); element.remove(); } continue; }
        if (!content) continue;
        if (action === 'update') { element.replaceChildren(content); continue; }
        if (action === 'replace' && holds) { holdRow(element, heldChanges, row); continue; }
        if (row && row.id) {
          const old = document.getElementById(row.id);
          // A held row that moved goes to its new place as it is.
          if (old && old !== element && old.hasAttribute('data-live-hold')) { element[action](old); holdRow(old, heldChanges, row); continue; }
          if (old && old !== element) old.remove();
        }
        // Editing mode's insert row stays its section's last.
        const insertRow = action === 'append' && element.querySelector(':scope > .editing-insert');
        if (insertRow) { insertRow.before(content); added.add(row && row.id); mark(row); continue; }
        // Rows are counted and marked; the pager (#list-pager, replaced when the rows it counts change) is not.
        const isRow = row && (row.tagName === 'LI' || row.tagName === 'TR');
        if (action === 'replace') { element.replaceWith(content); if (isRow) { changed.add(row.id); mark(row); } }
        else if (['before', 'after', 'append', 'prepend'].includes(action)) { element[action](content); added.add(row && row.id); mark(row); }
      }
    }
    const moved = [...added].filter((id) => removed.has(id));
    const counts = [
      [added.size - moved.length, 'added'], [removed.size - moved.length, 'removed'], [changed.size, 'changed'], [moved.length, 'moved']]
      .filter(([n]) => n > 0).map(([n, word]) => `${plural(n, 'row')} ${word}`);
    if (counts.length) announce(counts.join(', '));
    if (main.querySelector('nav.pager') !== pager) watchPager();
    if (anchor) {
      const row = document.getElementById(anchor.id);
      if (row) window.scrollBy(0, row.getBoundingClientRect().top - anchor.top);
    }
    if (focusRow && !focusRow.isConnected) {
      const row = document.getElementById(focusRow.id);
      // The same link, or the same button (editing mode's: its value), else the row's first control.
      const value = focused.tagName === 'BUTTON' ? focused.value : null;
      const same = row && [...row.querySelectorAll('a[href], button')].find((c) =>
        (focusHref && c.getAttribute('href') === focusHref) || (value !== null && c.tagName === 'BUTTON' && c.value === value));
      const again = row && (same || row.querySelector('a[href], button'));
      if (again) again.focus({ preventScroll: true });
    }
    tellHeld(heldChanges, eventId);
    document.dispatchEvent(new CustomEvent('cellar:batch', {
      detail: { id: Number(eventId) || 0, added: [...added].filter((id) => id && !removed.has(id)), removed: [...removed].filter((id) => !added.has(id)), changed: [...changed], moved },
    }));
  }

  // Sections or their titles changed in ways rows cannot patch: the window's rows again, in place.
  async function refreshRows() {
    try {
      const url = new URL(location.href);
      url.searchParams.set('fragment', 'rows');
      const fragment = await fetchFragment(url.href);
      const pager = main.querySelector('nav.pager');
      const table = main.querySelector('table.columns');
      // Rows held (a form open) are kept, each in place of its new version.
      const held = [...main.querySelectorAll('[data-live-hold]')];
      held.forEach((row) => row.remove());
      if (table) {
        // The table's sections again; the pager after the table.
        const newPager = fragment.querySelector('nav.pager');
        table.querySelectorAll(':scope > tbody').forEach((body) => body.remove());
        table.append(...fragment.querySelectorAll('tbody'));
        if (newPager) { if (pager) pager.replaceWith(newPager); else table.closest('.table-scroll').after(newPager); }
        else if (pager) pager.remove();
      } else {
        const sections = main.querySelectorAll('section.table-section');
        const anchor = sections[0] || pager || document.getElementById('live');
        anchor.before(fragment);
        sections.forEach((section) => section.remove());
        if (pager) pager.remove();
      }
      const heldChanges = new Map();
      for (const row of held) {
        const fresh = document.getElementById(row.id);
        if (fresh) fresh.replaceWith(row); else (main.querySelector('ul.rows, tbody.rows') || main).prepend(row);
        holdRow(row, heldChanges, fresh);
      }
      tellHeld(heldChanges, live.lastEventId);
      announce('The list was updated');
      watchPager();
    } catch (error) {
      showError(`Could not update the list (${error.message}). Reload the page to see the latest rows.`);
    }
  }

  if (main.dataset.list !== undefined && 'EventSource' in window && main.querySelector('ul.rows, tbody.rows')) {
    document.addEventListener('visibilitychange', () => { if (document.hidden) closeStream(); else openStream(); });
    document.addEventListener('cellar:rows-loaded', openStream);
    if (!document.hidden) openStream();
  }
})();
