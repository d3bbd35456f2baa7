// The showcase server: Cellar's entry point, with the showcase's lists, or a database's.
import Cellar
import CellarDatabase
import Showcase

App.run(version: "0.1.0", commands: [DatabaseCommand.self]) { app in
    if app.databasePath != nil {
        try app.mountDatabaseFromCommandLine()
    } else {
        try Showcase.install(in: app, hostilePayloads: try HostileListController.payloadsFromEnvironment())
    }
}
