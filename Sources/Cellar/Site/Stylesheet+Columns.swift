extension SiteAssets {
    /// The part of `/static/app.css` for database lists: the columns layout (a table whose header
    /// row stays in view and whose first column is pinned while it scrolls sideways) and the
    /// filter form, status line and chips above a list. Served after ``stylesheet``, in one file.
    static let columnsStylesheet = #"""
        /* The columns layout: one table, its header row kept in view, its first column pinned while
           the table scrolls sideways; long values clipped (the row's page has them whole). */
        main.columns-view { max-width: 1280px; }
        .table-scroll {
          overflow: auto; max-height: 85vh; margin: 0 0 8px;
          background: var(--card); border-radius: var(--radius);
        }
        table.columns { border-collapse: separate; border-spacing: 0; min-width: 100%; font-size: 0.9375rem; }
        .columns th, .columns td {
          padding: 8px 12px; text-align: left; vertical-align: top;
          max-width: 24em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
          border-bottom: 1px solid var(--sep);
        }
        .columns thead th {
          position: sticky; top: 0; z-index: 2;
          background: var(--card); color: var(--text-2); font-size: 0.8125rem; font-weight: 600;
          border-bottom: 2px solid var(--sep);
        }
        .columns tbody th[scope="row"] { position: sticky; left: 0; z-index: 1; background: var(--card); font-weight: 600; }
        .columns thead th:first-child { left: 0; z-index: 3; }
        .columns .num { text-align: right; font-variant-numeric: tabular-nums; }
        .columns .null, .fields .null, .detail .null, .columns .empty, .facet .null, .facet .empty { color: var(--text-2); font-style: italic; }
        .columns a.sort { color: inherit; text-decoration: none; display: inline-flex; gap: 4px; align-items: baseline; }
        .columns a.sort:hover { text-decoration: underline; }
        .columns th[aria-sort] { color: var(--text); }
        .sort-arrow { font-size: 0.75em; }
        .columns tr.section-header th {
          padding-top: 16px; text-align: left; position: static;
          font-size: 0.8125rem; font-weight: 400; text-transform: uppercase; letter-spacing: 0.04em; color: var(--text-2);
        }
        .columns .section-footer td { font-size: 0.8125rem; color: var(--text-2); border-bottom: 0; }
        .columns tbody tr.cell:hover > * { background: var(--card-hover); }
        .columns tbody tr.cell:hover > th[scope="row"] { background: var(--card); box-shadow: inset 0 0 0 100vmax var(--card-hover); }
        .columns tr.cell { display: table-row; position: static; min-height: 0; padding: 0; overflow-wrap: normal; }
        .columns tr.cell + tr.cell::before { content: none; }

        /* Above a database list: the filter form, the status line, the active filters as chips. */
        .list-tools { margin: 0 0 16px; }
        .filter { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 8px 12px; margin: 0 0 12px; }
        .filter label { display: flex; flex-direction: column; gap: 2px; font-size: 0.8125rem; color: var(--text-2); }
        .filter select, .filter input {
          min-height: 40px; padding: 6px 10px;
          border: 1px solid var(--sep); border-radius: 8px;
          background: var(--card); color: var(--text);
          font: inherit; font-size: max(1rem, 16px);
        }
        .filter button {
          min-height: 40px; padding: 8px 16px; border: 0; border-radius: 8px;
          background: var(--button); color: var(--on-button); font: inherit; font-weight: 600; cursor: pointer;
        }
        .filter button:hover { background: var(--button-hover); }
        .list-status { margin: 0 0 8px; color: var(--text-2); font-size: 0.9375rem; font-variant-numeric: tabular-nums; }
        .chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 0; padding: 0; list-style: none; }
        .chip {
          display: inline-flex; align-items: center; gap: 4px;
          padding: 2px 4px 2px 12px; border-radius: 999px;
          background: var(--badge-bg); color: var(--badge-text); font-size: 0.875rem;
        }
        .chip a {
          display: inline-flex; align-items: center; justify-content: center;
          min-width: 28px; min-height: 28px; border-radius: 50%;
          color: inherit; text-decoration: none; font-size: 1.1rem;
        }
        .chip a:hover { background: var(--card-hover); }
        .chips .clear { display: inline-flex; align-items: center; min-height: 32px; font-size: 0.875rem; }
        /* Facets: each column's most common values, a value a link that filters by it. */
        .facets { display: flex; flex-wrap: wrap; gap: 12px; margin: 0 0 16px; }
        .facet { flex: 1 1 200px; max-width: 320px; padding: 8px 12px; background: var(--card); border-radius: var(--radius); font-size: 0.9375rem; }
        .facet h2 { display: flex; align-items: center; justify-content: space-between; margin: 0 0 4px; font-size: 0.8125rem; font-weight: 600; color: var(--text-2); text-transform: uppercase; letter-spacing: 0.04em; }
        .facet-remove { display: inline-flex; align-items: center; justify-content: center; min-width: 28px; min-height: 28px; text-decoration: none; color: var(--text-2); }
        .facet ul { margin: 0; padding: 0; list-style: none; max-height: 16em; overflow: auto; }
        .facet li { display: flex; justify-content: space-between; gap: 8px; padding: 3px 0; }
        .facet li a { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .facet li.selected a { font-weight: 700; }
        .facet li.selected a::before { content: "✓ "; }
        .facet .count { color: var(--text-2); font-variant-numeric: tabular-nums; }
        .facet-note, .suggested-facets { margin: 4px 0 0; font-size: 0.8125rem; color: var(--text-2); }
        .suggested-facets { flex-basis: 100%; }
        /* A table's schema: a disclosure above the list, or a page of its own; a row's incoming references. */
        details.schema { margin: 0 0 12px; padding: 8px 12px; background: var(--card); border-radius: var(--radius); }
        details.schema summary { cursor: pointer; font-weight: 600; }
        .schema-columns { overflow-x: auto; }
        table.schema-table { border-collapse: collapse; font-size: 0.875rem; margin: 8px 0; }
        .schema-table caption { text-align: left; color: var(--text-2); font-size: 0.8125rem; }
        .schema-table th, .schema-table td { padding: 4px 10px; text-align: left; vertical-align: top; border-bottom: 1px solid var(--sep); }
        .schema-table thead th { color: var(--text-2); font-size: 0.8125rem; }
        ul.schema-indexes { margin: 4px 0 8px; padding-left: 20px; font-size: 0.875rem; }
        section.references { margin: 16px 0; }
        section.references h2 { font-size: 1.0625rem; margin: 0 0 6px; }
        section.references ul { margin: 0; padding-left: 20px; }

        @media (max-width: 480px) {
          .columns th, .columns td { max-width: 14em; padding: 8px 10px; }
          .columns tbody th[scope="row"], .columns thead th:first-child { max-width: 42vw; }
        }

        """#
}
