extension SiteAssets {
    /// The part of `/static/app.css` for a list in editing mode (`?editing=1`): the Edit and Done
    /// buttons, each row's controls beside its cell (under it on a phone), a row's form in place,
    /// the insert row, the message a refused change leaves in its row, and the Undo bar. Served
    /// after ``formsStylesheet``, in one file.
    static let editingStylesheet = #"""
        /* Editing mode: a table view after setEditing(true). */
        .editing-toolbar { display: flex; justify-content: flex-end; margin: 0 0 12px; }
        .editing-toolbar .button { min-width: 6rem; }
        .editing-view ul.rows > .cell {
          display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px;
        }
        .editing-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-left: auto; }
        .editing-buttons { display: flex; flex-wrap: wrap; gap: 8px; margin: 0; }
        .editing-controls .button { min-width: 0; min-height: 44px; padding: 8px 14px; font-size: 0.9375rem; }
        .editing-move, .editing-edit, .editing-action.editing-normal {
          background: var(--card); color: var(--accent); border: 1px solid var(--sep);
        }
        .editing-move:hover, .editing-edit:hover, .editing-action.editing-normal:hover { background: var(--card-hover); }
        .editing-delete, .editing-destructive { background: var(--error); color: #fff; }
        .editing-delete:hover, .editing-destructive:hover { background: var(--error); filter: brightness(0.9); }
        /* Dark mode's red is light: dark text on it. */
        @media (prefers-color-scheme: dark) { .editing-delete, .editing-destructive { color: #000; } }
        .editing-cell { white-space: nowrap; }
        .editing-open { display: block; }
        .editing-form { width: 100%; }
        .editing-form .rows { margin: 8px 0; }
        .editing-form .cell {
          display: grid; grid-template-columns: minmax(6rem, 10rem) minmax(0, 1fr); gap: 6px 16px; align-items: center;
        }
        .editing-form .field-label { grid-column: 1; grid-row: 1; }
        .editing-form .field-input, .editing-form .field-switch { grid-column: 2; grid-row: 1; }
        .editing-form .field-error { grid-column: 2; grid-row: 2; }
        .editing-form .field-help { grid-column: 2; grid-row: 3; }
        .editing-form .form-actions { margin: 8px 0 0; }
        .editing-insert { list-style: none; padding: 12px var(--pad); }
        .editing-notice {
          width: 100%; margin: 4px 0; padding: 8px 12px;
          border-left: 4px solid var(--error); background: var(--error-bg); color: var(--text);
        }
        .editing-notice p { margin: 0; font-weight: 600; }
        .editing-current { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 6px 0 0; }
        .editing-current dt { font-weight: 600; }
        .editing-current dd { margin: 0; overflow-wrap: anywhere; }
        .editing-undo {
          display: flex; align-items: center; justify-content: space-between; gap: 12px;
          margin: 0 0 12px; padding: 8px 8px 8px var(--pad);
          border-radius: var(--radius); background: var(--text); color: var(--bg);
        }
        .editing-undo .button { min-width: 6rem; background: var(--bg); color: var(--accent); }
        @media (max-width: 480px) {
          .editing-controls { margin-left: 0; width: 100%; }
          .editing-controls .button { flex: 1 1 auto; }
          .editing-form .cell { grid-template-columns: minmax(0, 1fr); }
          .editing-form .field-label, .editing-form .field-input, .editing-form .field-error, .editing-form .field-help { grid-column: 1; }
          .editing-form .field-input { grid-row: 2; }
          .editing-form .field-error { grid-row: 3; }
          .editing-form .field-help { grid-row: 4; }
        }

        """#
}
