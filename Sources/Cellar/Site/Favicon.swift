extension SiteAssets {
    /// The site's icon, served at `/static/favicon.svg`.
    ///
    /// The file's text exactly, up to the line before the closing delimiter (a raw literal: a
    /// backslash is just a backslash).
    static let favicon = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
          <title>Cellar</title>
          <rect width="32" height="32" rx="7" fill="#0064d2"/>
          <g fill="#fff">
            <circle cx="9" cy="10" r="2"/><rect x="13" y="8.75" width="12" height="2.5" rx="1.25"/>
            <circle cx="9" cy="16" r="2"/><rect x="13" y="14.75" width="12" height="2.5" rx="1.25"/>
            <circle cx="9" cy="22" r="2"/><rect x="13" y="20.75" width="9" height="2.5" rx="1.25"/>
          </g>
        </svg>

        """#
}
