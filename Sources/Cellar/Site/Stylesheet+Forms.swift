extension SiteAssets {
    /// The part of `/static/app.css` for forms (`app.form`): field cells in the inset-grouped
    /// sections of a list (label beside the control on a desktop, above it on a phone), the switch,
    /// the buttons, each field's error and the error summary, focus rings, light and dark. Served
    /// after ``columnsStylesheet``, in one file.
    static let formsStylesheet = #"""
        /* Forms: a static table view of field cells (Settings). */
        main.form-view .rows { overflow: visible; }
        .form-view .cell {
          display: grid; grid-template-columns: minmax(7rem, 12rem) minmax(0, 1fr);
          gap: 6px 16px; align-items: center;
          padding-top: 10px; padding-bottom: 10px;
        }
        /* Label beside the control; the error and the help under it (the error is read first: it is first in the page). */
        .form-view .field-label { grid-column: 1; grid-row: 1; }
        .form-view .field-input { grid-column: 2; grid-row: 1; }
        .form-view .field-error { grid-column: 2; grid-row: 2; }
        .form-view .field-help { grid-column: 2; grid-row: 3; }
        .form-view .cell.textarea { align-items: start; }
        .form-view .cell.textarea .field-label { padding-top: 10px; }
        .field-label { font-weight: 500; overflow-wrap: anywhere; }
        .field-optional { color: var(--text-2); font-weight: 400; font-size: 0.875rem; }
        .field-input {
          width: 100%; min-width: 0; min-height: 44px;
          padding: 8px 12px; margin: 0;
          border: 1px solid var(--sep); border-radius: 10px;
          background: var(--bg); color: var(--text);
          font: inherit; font-size: max(1rem, 16px);
        }
        .field-input::placeholder { color: var(--text-2); opacity: 1; }
        textarea.field-input { min-height: 6.5rem; resize: vertical; line-height: 1.4; }
        select.field-input { cursor: pointer; }
        .field-input:hover { border-color: var(--text-2); }
        .field-input:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; border-color: var(--focus); }
        .field-input[aria-invalid="true"] { border: 2px solid var(--error); }
        .field-help { margin: 0; font-size: 0.8125rem; color: var(--text-2); }
        .field-error { margin: 0; color: var(--error); font-size: 0.9375rem; font-weight: 600; }
        .field-error::before { content: "! "; }
        /* The date's calendar button, drawn dark by the browser, light on a dark page. */
        @media (prefers-color-scheme: dark) {
          .field-input::-webkit-calendar-picker-indicator { filter: invert(0.85); }
        }

        /* The switch: a checkbox drawn as UISwitch, label on the left. */
        .field-switch-row { grid-column: 1 / -1; display: flex; align-items: center; justify-content: space-between; gap: 16px; min-height: 31px; }
        .form-view .cell.switchfield .field-error, .form-view .cell.switchfield .field-help { grid-column: 1 / -1; }
        .field-switch {
          appearance: none; -webkit-appearance: none;
          position: relative; flex: none; margin: 0;
          width: 51px; height: 31px; border-radius: 999px;
          background: var(--switch-off); border: 1px solid var(--sep);
          cursor: pointer; transition: background-color 0.2s;
        }
        .field-switch::before {
          content: ""; position: absolute; top: 1px; left: 1px;
          width: 27px; height: 27px; border-radius: 50%;
          background: #fff; box-shadow: 0 2px 4px rgba(0, 0, 0, 0.25);
          transition: transform 0.2s;
        }
        .field-switch:checked { background: var(--switch-on); border-color: var(--switch-on); }
        .field-switch:checked::before { transform: translateX(20px); }
        .field-switch:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .field-switch[aria-invalid="true"] { border: 2px solid var(--error); }
        @media (forced-colors: active) {
          .field-switch { appearance: auto; -webkit-appearance: auto; width: auto; height: auto; }
          .field-switch::before { content: none; }
        }

        /* Buttons */
        .form-actions { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 12px; margin: 0 0 28px; }
        .button {
          display: inline-flex; align-items: center; justify-content: center;
          min-height: 44px; min-width: 8rem; padding: 10px 22px;
          border: 0; border-radius: var(--radius);
          background: var(--button); color: var(--on-button);
          font: inherit; font-weight: 600; text-decoration: none;
          cursor: pointer;
        }
        .button:hover { background: var(--button-hover); }
        .button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .button:active { transform: translateY(1px); }
        .button-secondary { background: var(--card); color: var(--accent); border: 1px solid var(--sep); }
        .button-secondary:hover { background: var(--card-hover); }

        /* The error summary: what to fix, each a link to its field. */
        .error-summary {
          margin: 0 0 24px; padding: 14px var(--pad) 16px;
          border: 3px solid var(--error); border-radius: var(--radius);
          background: var(--card); color: var(--text);
        }
        .error-summary:focus { outline: 3px solid var(--focus); outline-offset: 3px; }
        .error-summary h2 { margin: 0 0 8px; font-size: 1.1875rem; line-height: 1.3; }
        .error-summary ul { margin: 0; padding-left: 1.25rem; }
        .error-summary li + li { margin-top: 4px; }
        .error-summary a { color: var(--error); font-weight: 600; }
        .error-summary a:hover { text-decoration: underline double; }

        @media (max-width: 480px) {
          .form-view .cell { grid-template-columns: minmax(0, 1fr); gap: 6px; }
          .form-view .field-label, .form-view .field-input, .form-view .field-error, .form-view .field-help { grid-column: 1; }
          .form-view .field-input { grid-row: 2; }
          .form-view .field-error { grid-row: 3; }
          .form-view .field-help { grid-row: 4; }
          .form-view .cell.switchfield .field-error { grid-row: 2; }
          .form-view .cell.switchfield .field-help { grid-row: 3; }
          .form-view .cell.textarea .field-label { padding-top: 0; }
          .form-actions .button { flex: 1 1 100%; }
        }

        """#
}
