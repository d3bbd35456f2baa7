// The showcase server: Cellar's entry point, with the showcase's lists, or a database's.
import Cellar
import CellarDatabase
import Showcase

App.run(version: "0.1.0") { app in
    if let path = app.databasePath {
        var options = DatabaseOptions()
        if let limit = app.databaseTimeLimit { options.timeLimit = limit }
        try app.mount(Database(path: path, options: options))
    } else {
        try Showcase.install(in: app, hostilePayloads: try HostileListController.payloadsFromEnvironment())
    }
}
