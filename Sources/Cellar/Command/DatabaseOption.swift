import ArgumentParser

/// `--database`, with `CELLAR_DATABASE` as its fallback: the database `serve` and `routes` make
/// lists of, and the one CellarDatabase's `database` command works on, read the same way by all.
package struct DatabaseOption: ParsableArguments {
    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "A SQLite file, or a postgres:// URL (libpq's PG* variables and password file fill in what it leaves out) (env CELLAR_DATABASE). serve and routes make every table and view a list, read-only; database needs a URL, with a role that owns the tables.",
            valueName: "path-or-url"))
    var option: String?

    package init() {}

    /// The database named by the flag or the variable, if either is set.
    package var location: String? { option ?? EnvironmentVariables.string("CELLAR_DATABASE") }
}
