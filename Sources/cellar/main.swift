// The showcase server: Cellar's entry point, with the showcase's lists.
import Cellar
import Showcase

App.run(version: "0.1.0") { app in
    try Showcase.install(in: app, hostilePayloads: try HostileListController.payloadsFromEnvironment())
}
