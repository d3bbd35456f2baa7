/// What a controller wants done with a request (SwiftCleanTools' ViewModel `Action`).
public enum ControllerAction: Sendable, Equatable {
    /// Render the list.
    case render
    /// Render the list under a banner.
    case alert(Alert)
    /// Go to another page instead (a 303 redirect).
    case redirect(to: String)
    /// Render the page with a loading placeholder that the browser fills with the rows fragment.
    case loading(message: String)
}

/// A banner shown above a list.
public struct Alert: Sendable, Equatable {
    public enum Style: String, Sendable { case info, warning, error }
    public var style: Style
    public var message: String

    public init(_ style: Style, _ message: String) {
        self.style = style
        self.message = message
    }
}
