extension SiteAssets {
    /// The part of `/static/app.css` for exploring a database list: the sort menu of a list in the
    /// cells layout (a disclosure of links). Served after ``formsStylesheet``, in one file.
    static let exploreStylesheet = #"""
        /* The sort menu of a list in the cells layout: a disclosure of links, the current one marked. */
        details.sort-menu { position: relative; display: inline-block; margin: 0 0 8px; font-size: 0.9375rem; }
        details.sort-menu summary {
          display: inline-flex; align-items: center; gap: 0.35em; min-height: 40px; padding: 6px 12px; cursor: pointer;
          border: 1px solid var(--sep); border-radius: 8px; background: var(--card); color: var(--text);
          list-style: none;
        }
        details.sort-menu summary::-webkit-details-marker { display: none; }
        details.sort-menu summary::after { content: "▾"; color: var(--text-2); }
        details.sort-menu[open] summary::after { content: "▴"; }
        details.sort-menu ul {
          position: absolute; z-index: 5; margin: 4px 0 0; padding: 4px 0; list-style: none;
          min-width: 16em; max-height: 60vh; overflow: auto;
          background: var(--card); border: 1px solid var(--sep); border-radius: 8px;
        }
        details.sort-menu li a { display: block; padding: 8px 12px; min-height: 24px; text-decoration: none; color: var(--text); }
        details.sort-menu li a:hover { background: var(--card-hover); }
        details.sort-menu a[aria-current] { font-weight: 700; }
        details.sort-menu a[aria-current]::before { content: "✓ "; }

        """#
}
