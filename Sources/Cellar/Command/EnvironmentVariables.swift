import ArgumentParser
import FoundationEssentials

/// Environment fallbacks for the command's flags. A set but malformed value is remembered, not
/// fatal here: default values are evaluated for every subcommand (and for `--help`), so only the
/// command that reads the variable rejects it, in its `validate()`, rather than falling back to a
/// default nobody asked for.
enum EnvironmentVariables {
    /// Malformed variables seen so far, by name, with what they should have been. Written only
    /// while the command line is parsed, on the thread that called ``App/run(siteName:version:arguments:_:)``.
    nonisolated(unsafe) private static var malformed: [String: (value: String, expected: String)] = [:]

    static func string(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    static func int(_ name: String) -> Int? {
        guard let value = string(name) else { return nil }
        guard let number = Int(value) else {
            malformed[name] = (value, "a whole number")
            return nil
        }
        return number
    }

    /// `1`, `true` or `yes` is true; `0`, `false`, `no` or unset is false (any case).
    static func flag(_ name: String) -> Bool {
        guard let value = string(name) else { return false }
        switch value.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default:
            malformed[name] = (value, "1, true, yes, 0, false or no")
            return false
        }
    }

    /// Throws for the first of `names` that is set to something its flag cannot take.
    static func validate(_ names: String...) throws {
        for name in names {
            if let (value, expected) = malformed[name] { throw ValidationError("\(name)='\(value)' is not \(expected).") }
        }
    }
}
