/// One field of a form: a row of its table, shown by the field cell of its ``Kind``.
///
/// A static table view's cell, described as a value: what it is called in the body (`name`), what
/// it says (`label`, `placeholder`, `help`), what it holds (`value`, as the text a browser sends)
/// and, once a submission was checked, what is wrong with it (`error`).
///
/// ```swift
/// FormField.text("wine", label: "Wine", isRequired: true, placeholder: "Château Musar 2017")
/// FormField.picker("rating", label: "Rating", options: [.init("5", "Five stars"), .init("4", "Four stars")])
/// FormField.toggle("again", label: "Buy again", value: "1")
/// ```
public struct FormField: Sendable, Equatable {
    /// What a field holds, and so which cell shows it and how its text is checked.
    public enum Kind: Sendable, Equatable {
        /// One line of text (``TextFieldCell``).
        case text
        /// Several lines of text (``TextAreaCell``).
        case textArea
        /// A number, whole unless `allowsDecimals`, within the bounds given (``NumberFieldCell``).
        case number(minimum: Double?, maximum: Double?, allowsDecimals: Bool)
        /// A calendar day, `2026-11-28` (``DateFieldCell``).
        case date
        /// On or off (``SwitchCell``): `1` or `0` in the body.
        case toggle
        /// One of a fixed set of choices (``PickerCell``).
        case picker([Option])
        /// A password: never written back into the page (``SecureFieldCell``).
        case secure
        /// A value found by searching among more choices than a page lists (``SearchFieldCell``).
        case search(ChoiceSearch)
    }

    /// A choice of a picker: the value the body carries, and the text shown for it.
    public struct Option: Sendable, Equatable {
        public var value: String
        public var title: String

        public init(_ value: String, _ title: String) {
            self.value = value
            self.title = title
        }
    }

    /// The name the body carries the field's value under, and the key it decodes into.
    public var name: String
    /// What the field is called on the page, and in its error messages.
    public var label: String
    public var kind: Kind
    /// Whether the field must be filled (or a picker's option chosen).
    public var isRequired: Bool
    /// Sample text shown in an empty field.
    public var placeholder: String?
    /// A line under the field saying what to enter, tied to it by `aria-describedby`.
    public var help: String?
    /// The field's value as text: the default on a new form, what was sent on a form shown again.
    public var value: String
    /// What is wrong with the value, after a submission; nil when nothing is.
    public var error: String?
    /// The longest value accepted, in UTF-16 code units as a browser's `maxlength` counts them: the
    /// page says so, and a longer value is refused (400) before anything is checked.
    public var maxLength: Int
    /// The browser's autofill hint (`autocomplete`), such as `name`, `email` or `new-password`.
    public var autocomplete: String?

    public init(
        name: String, label: String, kind: Kind, isRequired: Bool = false, placeholder: String? = nil, help: String? = nil,
        value: String = "", maxLength: Int? = nil, autocomplete: String? = nil
    ) {
        self.name = name
        self.label = label
        self.kind = kind
        self.isRequired = isRequired
        self.placeholder = placeholder
        self.help = help
        self.value = value
        self.maxLength = maxLength ?? (kind == .textArea ? 10_000 : 1_000)
        self.autocomplete = autocomplete
    }

    /// One line of text.
    public static func text(
        _ name: String, label: String, isRequired: Bool = false, placeholder: String? = nil, help: String? = nil, value: String = "",
        maxLength: Int? = nil, autocomplete: String? = nil
    ) -> FormField {
        FormField(
            name: name, label: label, kind: .text, isRequired: isRequired, placeholder: placeholder, help: help, value: value,
            maxLength: maxLength, autocomplete: autocomplete)
    }

    /// Several lines of text.
    public static func textArea(
        _ name: String, label: String, isRequired: Bool = false, placeholder: String? = nil, help: String? = nil, value: String = "",
        maxLength: Int? = nil
    ) -> FormField {
        FormField(
            name: name, label: label, kind: .textArea, isRequired: isRequired, placeholder: placeholder, help: help, value: value,
            maxLength: maxLength)
    }

    /// A number, whole unless `allowsDecimals`, between `minimum` and `maximum` when they are given.
    public static func number(
        _ name: String, label: String, isRequired: Bool = false, minimum: Double? = nil, maximum: Double? = nil, allowsDecimals: Bool = false,
        placeholder: String? = nil, help: String? = nil, value: String = ""
    ) -> FormField {
        FormField(
            name: name, label: label, kind: .number(minimum: minimum, maximum: maximum, allowsDecimals: allowsDecimals), isRequired: isRequired,
            placeholder: placeholder, help: help, value: value, maxLength: 64)
    }

    /// A calendar day; `value` is written `2026-11-28`.
    public static func date(_ name: String, label: String, isRequired: Bool = false, help: String? = nil, value: String = "") -> FormField {
        FormField(name: name, label: label, kind: .date, isRequired: isRequired, help: help, value: value, maxLength: 64)
    }

    /// A switch, on when `isOn`.
    public static func toggle(_ name: String, label: String, help: String? = nil, isOn: Bool = false) -> FormField {
        FormField(name: name, label: label, kind: .toggle, help: help, value: isOn ? "1" : "0", maxLength: 16)
    }

    /// A choice among `options`; `value` is the chosen option's value.
    public static func picker(
        _ name: String, label: String, options: [Option], isRequired: Bool = false, help: String? = nil, value: String = ""
    ) -> FormField {
        FormField(name: name, label: label, kind: .picker(options), isRequired: isRequired, help: help, value: value)
    }

    /// A value typed, or found by searching (`search`'s suggestions, or its page of matches).
    public static func search(
        _ name: String, label: String, search: ChoiceSearch, isRequired: Bool = false, help: String? = nil, value: String = ""
    ) -> FormField {
        FormField(name: name, label: label, kind: .search(search), isRequired: isRequired, help: help, value: value)
    }

    /// A password, which a page never shows again.
    public static func secure(
        _ name: String, label: String, isRequired: Bool = false, help: String? = nil, autocomplete: String? = "current-password"
    ) -> FormField {
        FormField(name: name, label: label, kind: .secure, isRequired: isRequired, help: help, maxLength: 1_000, autocomplete: autocomplete)
    }
}
