extension SiteAssets {
    /// The site's stylesheet, served at `/static/app.css`: the inset-grouped table-view look of
    /// lists, cells, details and error pages, light and dark.
    ///
    /// The file's text exactly, up to the line before the closing delimiter (a raw literal: a
    /// backslash is just a backslash).
    static let stylesheet = #"""
        /* Cellar — lists rendered the iOS inset-grouped table-view way. No external resources. */

        :root {
          --bg: #f2f2f7;
          --card: #fff;
          --card-hover: rgba(0, 0, 0, 0.05);
          --text: #1c1c1e;
          --text-2: #636366;
          --sep: #c6c6c8;
          --accent: #0058b9;
          --button: #0064d2;
          --button-hover: #0052ad;
          --on-button: #fff;
          --focus: #0058b9;
          --badge-bg: #e5efff;
          --badge-text: #00449a;
          --switch-off: #e5e5ea;
          --switch-on: #248a3d;
          --info: #0058b9;
          --info-bg: #e8f1fc;
          --warning: #b25e00;
          --warning-bg: #fff4e0;
          --error: #c4281c;
          --error-bg: #fdeceb;
          --radius: 12px;
          --pad: 16px;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
          line-height: 1.4;
          -webkit-text-size-adjust: 100%;
          text-size-adjust: 100%;
        }

        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #000;
            --card: #1c1c1e;
            --card-hover: rgba(255, 255, 255, 0.07);
            --text: #f2f2f7;
            --text-2: #a1a1a6;
            --sep: #38383a;
            --accent: #4da3ff;
            --button: #0a6ed1;
            --button-hover: #1f7fe0;
            --focus: #4da3ff;
            --badge-bg: #0a2b52;
            --badge-text: #9ecbff;
            --switch-off: #39393d;
            --switch-on: #30d158;
            --info: #4da3ff;
            --info-bg: #0d2236;
            --warning: #ffb340;
            --warning-bg: #33260a;
            --error: #ff6961;
            --error-bg: #3a1210;
          }
        }

        *, *::before, *::after { box-sizing: border-box; }

        body {
          margin: 0;
          min-height: 100vh;
          display: flex;
          flex-direction: column;
          background: var(--bg);
          color: var(--text);
          font-size: 1.0625rem;
        }

        a { color: var(--accent); }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 4px; }

        .visually-hidden {
          position: absolute !important;
          width: 1px; height: 1px;
          margin: -1px; padding: 0; border: 0;
          overflow: hidden;
          clip: rect(0 0 0 0);
          clip-path: inset(50%);
          white-space: nowrap;
        }

        .skip-link {
          position: absolute; left: var(--pad); top: -100px; z-index: 10;
          padding: 8px 14px; border-radius: 8px;
          background: var(--button); color: var(--on-button); font-weight: 600;
        }
        .skip-link:focus { top: 8px; }

        /* Site header and footer */
        .site-header {
          display: flex; flex-wrap: wrap; align-items: center; gap: 6px 24px;
          padding: 12px max(16px, calc((100% - 720px) / 2));
          background: var(--card);
          border-bottom: 1px solid var(--sep);
        }
        .brand { color: var(--text); font-weight: 700; font-size: 1.25rem; text-decoration: none; letter-spacing: -0.01em; }
        .site-header nav, .site-header nav ul { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 1rem; }
        .site-header nav ul { margin: 0; padding: 0; list-style: none; }
        .site-header nav a { text-decoration: none; font-weight: 500; padding: 4px 0; }
        .site-header nav a:hover, .site-header nav a[aria-current] { text-decoration: underline; }
        .site-footer { margin-top: auto; padding: 24px var(--pad); text-align: center; color: var(--text-2); font-size: 0.8125rem; }
        .site-footer p { margin: 0; }

        /* Page body */
        main { width: 100%; max-width: 752px; margin: 0 auto; padding: 8px var(--pad) 32px; }
        main:focus { outline: none; }
        h1 { font-size: 2.125rem; line-height: 1.15; letter-spacing: -0.02em; margin: 20px 0 16px; overflow-wrap: anywhere; }

        /* Sections: grouped header, rounded card of rows, footer */
        .table-section { margin: 0 0 28px; }
        .section-header {
          margin: 0 var(--pad) 7px;
          font-size: 0.8125rem; font-weight: 400;
          text-transform: uppercase; letter-spacing: 0.04em;
          color: var(--text-2);
        }
        .section-footer { margin: 7px var(--pad) 0; font-size: 0.8125rem; color: var(--text-2); }

        .rows {
          list-style: none; margin: 0; padding: 0;
          background: var(--card);
          border-radius: var(--radius);
          overflow: hidden;
        }
        .rows:empty { display: none; }

        .cell {
          position: relative;
          display: flex; flex-wrap: wrap; align-items: center; gap: 2px 12px;
          min-height: 44px;
          padding: 11px var(--pad);
          overflow-wrap: anywhere;
        }
        /* Inset separator between rows, as in UITableView. */
        .cell + .cell::before, .cell + .loading::before {
          content: ""; position: absolute; top: 0; right: 0; left: var(--pad);
          border-top: 1px solid var(--sep);
        }
        @media (min-resolution: 2dppx) {
          .cell + .cell::before, .cell + .loading::before { border-top-width: 0.5px; }
        }
        .cell-title { font-weight: 400; margin: 0; }
        .cell-subtitle { display: block; width: 100%; margin: 0; font-size: 0.9375rem; color: var(--text-2); }
        .cell-detail { margin-left: auto; color: var(--text-2); text-align: right; font-variant-numeric: tabular-nums; }
        .cell-bio { width: 100%; margin: 2px 0 0; font-size: 0.9375rem; color: var(--text-2); }
        .cell p { margin: 0; }

        /* A row link covers the whole row (stretched ::after) and ends in a chevron. */
        .cell-link {
          display: flex; flex-wrap: wrap; align-items: center; gap: 2px 10px;
          flex: 1 1 100%;
          padding-right: 24px;
          color: inherit; text-decoration: none;
        }
        .cell-link::after {
          content: ""; position: absolute; top: 0; right: 0; bottom: 0; left: 0; z-index: 1;
          border-radius: inherit;
        }
        .cell-link::before {
          content: ""; position: absolute; right: 20px; top: 50%;
          width: 8px; height: 8px;
          border-top: 2px solid var(--text-2); border-right: 2px solid var(--text-2);
          transform: translateY(-50%) rotate(45deg);
        }
        .cell-link:hover::after { background: var(--card-hover); }
        /* Content after the row link (an engineer's email and bio) keeps clear of the chevron. */
        .cell-link ~ * { padding-right: 24px; }
        .cell-link:focus-visible { outline: none; }
        .cell-link:focus-visible::after { outline: 3px solid var(--focus); outline-offset: -3px; border-radius: 8px; }
        /* Other links and controls inside a linked row stay clickable above the stretched link. */
        .cell a:not(.cell-link), .cell button, .cell input, .cell select, .cell textarea, .cell label, .cell summary,
        .cell [tabindex] { position: relative; z-index: 2; }

        .badge {
          display: inline-block; padding: 1px 8px; border-radius: 999px;
          background: var(--badge-bg); color: var(--badge-text);
          font-size: 0.75rem; font-weight: 600; letter-spacing: 0.02em; text-transform: uppercase;
        }

        .cell.engineer > a:not(.cell-link) { font-size: 0.9375rem; }
        .cell.engineer .cell-title { font-weight: 600; }
        .cell.subtitle .cell-link { gap: 1px 10px; }
        .cell.value .cell-title, .cell.toggle .cell-title { flex: 1 1 auto; }
        .cell.link .cell-link { color: var(--accent); }
        /* Product: title over subtitle on the left, price on the right. */
        .cell.product .cell-link { display: grid; grid-template-columns: 1fr auto; column-gap: 12px; align-items: center; }
        .cell.product .cell-title { grid-column: 1; font-weight: 600; }
        .cell.product .cell-subtitle { grid-column: 1; }
        .cell.product .cell-detail { grid-column: 2; grid-row: 1 / span 2; font-weight: 600; color: var(--text); }
        .cell.note { display: block; }
        .cell.note .cell-title { font-weight: 600; }
        .cell.note .cell-subtitle { margin-top: 2px; }
        .cell.index, .cell.bigrow { min-height: 40px; padding-top: 9px; padding-bottom: 9px; font-variant-numeric: tabular-nums; }
        .cell.index .cell-detail, .cell.bigrow .cell-detail { font-size: 0.9375rem; }
        /* A database row: its title, then each column as a name and value, the pairs wrapping as lines of text. */
        .cell.databaserow .cell-title { font-weight: 600; }
        .fields { display: flex; flex-wrap: wrap; gap: 2px 18px; flex: 1 1 100%; margin: 0; font-size: 0.9375rem; }
        .fields div { display: flex; align-items: baseline; gap: 6px; min-width: 0; max-width: 100%; }
        .fields dt { flex: none; max-width: 12em; color: var(--text-2); font-size: 0.8125rem; }
        .fields dd { min-width: 0; margin: 0; }
        .fields .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
        .fields .null { color: var(--text-2); font-style: italic; }
        /* A row with no detail (a view's) has a link without href: no chevron, no hover. */
        .cell-link:not([href]) { padding-right: 0; }
        .cell-link:not([href])::before { content: none; }
        .cell-link:not([href]):hover::after { background: none; }

        /* Switch: a read-only indicator, not a control. Its state is in visually-hidden text. */
        .switch {
          position: relative; flex: none; margin-left: auto;
          width: 51px; height: 31px; border-radius: 999px;
          background: var(--switch-off);
          transition: background-color 0.2s;
        }
        .switch::after {
          content: ""; position: absolute; top: 2px; left: 2px;
          width: 27px; height: 27px; border-radius: 50%;
          background: #fff; box-shadow: 0 2px 4px rgba(0, 0, 0, 0.25);
          transition: transform 0.2s;
        }
        .switch[data-on="true"] { background: var(--switch-on); }
        .switch[data-on="true"]::after { transform: translateX(20px); }

        /* Alerts */
        .alert {
          margin: 0 0 20px; padding: 12px var(--pad);
          border-radius: var(--radius); border-left: 5px solid var(--info);
          background: var(--info-bg); color: var(--text);
        }
        .alert-warning { border-left-color: var(--warning); background: var(--warning-bg); }
        .alert-error { border-left-color: var(--error); background: var(--error-bg); }
        .cell-error { background: var(--error-bg); color: var(--text); border-left: 4px solid var(--error); }
        .cell-error-message { margin: 0; padding: 12px var(--pad); }

        /* Loading placeholder: a skeleton with a shimmer. */
        .loading {
          position: relative; display: block;
          min-height: 44px; padding: 11px var(--pad);
          border-radius: var(--radius);
          color: var(--text);
          background: #e5e5ea linear-gradient(90deg, #e5e5ea 25%, #f2f2f7 50%, #e5e5ea 75%) 0 0 / 200% 100%;
          animation: shimmer 1.4s linear infinite;
        }
        li.loading { border-radius: 0; }
        .loading p { margin: 0; }
        @media (prefers-color-scheme: dark) {
          .loading { background: #2c2c2e linear-gradient(90deg, #2c2c2e 25%, #3a3a3c 50%, #2c2c2e 75%) 0 0 / 200% 100%; }
        }
        @keyframes shimmer { to { background-position: -200% 0; } }

        [aria-busy="true"] { cursor: progress; }
        main[aria-busy="true"] .rows, .rows[aria-busy="true"] { opacity: 0.75; transition: opacity 0.2s; }

        /* Pager and the load-more button */
        .pager {
          display: flex; flex-direction: column; align-items: center; gap: 10px;
          margin: 24px 0 8px; text-align: center;
        }
        .pager [aria-current="page"] { color: var(--text-2); font-size: 0.9375rem; font-variant-numeric: tabular-nums; }
        .pager a:not(.load-more) { font-weight: 500; }
        .load-more, .search button {
          display: inline-flex; align-items: center; justify-content: center;
          min-height: 44px; padding: 10px 22px;
          border: 0; border-radius: var(--radius);
          background: var(--button); color: var(--on-button);
          font: inherit; font-weight: 600; text-decoration: none;
          cursor: pointer;
        }
        .load-more { width: 100%; max-width: 360px; }
        .load-more:hover, .search button:hover { background: var(--button-hover); }
        .load-more[aria-disabled="true"] { opacity: 0.7; cursor: progress; }

        /* Search form */
        .search { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 24px; }
        .search label { flex-basis: 100%; margin: 0 var(--pad); font-size: 0.8125rem; color: var(--text-2); text-transform: uppercase; letter-spacing: 0.04em; }
        .search input {
          flex: 1 1 12rem; min-width: 0; min-height: 44px;
          padding: 8px 14px;
          border: 1px solid var(--sep); border-radius: var(--radius);
          background: var(--card); color: var(--text);
          font: inherit; font-size: max(1rem, 16px);
        }
        .search input:focus-visible { outline-offset: 0; }
        /* The SQL page's form: the statement in a monospaced box the width of the page */
        .query textarea {
          flex: 1 1 100%; min-width: 0; min-height: 8rem; resize: vertical;
          padding: 10px 14px;
          border: 1px solid var(--sep); border-radius: var(--radius);
          background: var(--card); color: var(--text);
          font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: max(0.9375rem, 16px);
        }
        .query textarea:focus-visible { outline-offset: 0; }
        .query .hint { flex-basis: 100%; margin: 0 var(--pad); font-size: 0.8125rem; color: var(--text-2); }
        .formats { margin: -12px var(--pad) 16px; font-size: 0.9375rem; color: var(--text-2); }

        /* Detail page */
        .detail {
          display: grid; grid-template-columns: minmax(6rem, max-content) 1fr;
          margin: 0 0 24px; padding: 0 var(--pad);
          background: var(--card); border-radius: var(--radius);
        }
        .detail dt, .detail dd { margin: 0; padding: 11px 0; overflow-wrap: anywhere; }
        .detail dt { padding-right: 16px; color: var(--text-2); }
        .detail dt:not(:first-of-type), .detail dt:not(:first-of-type) + dd { border-top: 1px solid var(--sep); }

        /* Error page */
        .error-page { text-align: center; padding-top: 48px; }
        .error-page h1 { font-size: 2.5rem; }
        .error-page p { color: var(--text-2); }
        .error-page a { font-weight: 600; }
        .error-page .request-id { font-size: 0.8125rem; }
        code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }

        @media (max-width: 480px) {
          :root { --pad: 14px; }
          h1 { font-size: 1.75rem; margin-top: 16px; }
          main { padding-left: 12px; padding-right: 12px; }
          .site-header { gap: 4px 16px; padding-top: 10px; padding-bottom: 10px; }
          .brand { font-size: 1.125rem; }
          .site-header nav, .site-header nav ul { gap: 2px 14px; font-size: 0.9375rem; }
          .detail { grid-template-columns: 1fr; }
          .detail dt { padding-bottom: 0; font-size: 0.8125rem; }
          .detail dd { padding-top: 2px; border-top: 0 !important; }
        }

        /* Live lists: a row that came in or changed is marked for a moment (app.js). */
        @keyframes row-changed { from { background: var(--badge-bg); } to { background: transparent; } }
        .cell.row-changed { animation: row-changed 2s ease-out; }

        @media (prefers-reduced-motion: reduce) {
          *, *::before, *::after { animation: none !important; transition: none !important; scroll-behavior: auto !important; }
        }

        @media print {
          .site-header nav, .pager, .skip-link { display: none; }
          .rows { border: 1px solid #999; }
        }

        """#
}
