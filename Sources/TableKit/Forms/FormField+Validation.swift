extension FormField {
    /// What is wrong with `text` as this field's value, or nil when nothing is: a required field
    /// left empty, a number that is not one or out of bounds, a day that is not a day, a choice
    /// that is not among the options. Each message names the field by its label and says what to
    /// enter. `text` is what a browser sends (nil: not sent at all).
    public func validationMessage(for text: String?) -> String? {
        let text = text ?? ""
        if text.allSatisfy(\.isWhitespace) {
            // A switch is never empty: it is off.
            return isRequired && kind != .toggle ? "\(label) is required." : nil
        }
        switch kind {
        case .text, .textArea, .secure, .search:
            return nil
        case .number(let minimum, let maximum, let allowsDecimals):
            guard let number = Double(text), number.isFinite else { return "\(label) must be a number, like 12." }
            if !allowsDecimals, number.rounded() != number { return "\(label) must be a whole number." }
            switch (minimum, maximum) {
            case (let minimum?, let maximum?) where number < minimum || number > maximum:
                return "\(label) must be between \(Self.numberText(minimum)) and \(Self.numberText(maximum))."
            case (let minimum?, nil) where number < minimum:
                return "\(label) must be \(Self.numberText(minimum)) or more."
            case (nil, let maximum?) where number > maximum:
                return "\(label) must be \(Self.numberText(maximum)) or less."
            default:
                return nil
            }
        case .date:
            return CalendarDay(text) == nil ? "\(label) must be a date, like 2026-11-28." : nil
        case .toggle:
            return Self.switchValue(text) == nil ? "\(label) must be on or off." : nil
        case .picker(let options):
            return options.contains { $0.value == text } ? nil : "Choose one of the options for \(label)."
        }
    }

    /// A switch's text as a Bool: `1`, `on`, `true` (what a checkbox sends, or JSON) are on; `0`,
    /// `off`, `false` and nothing are off; anything else is not a switch's value.
    public static func switchValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "on", "true", "yes": true
        case "", "0", "off", "false", "no": false
        default: nil
        }
    }

    /// `12` for 12.0, `2.5` for 2.5: a bound as a person writes it.
    static func numberText(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }
}
