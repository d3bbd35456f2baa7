import Cellar
import Synchronization
import TableKit

/// `/sensors`: the cellar's sensors, a live list. While anyone watches it, one reading changes
/// every second and the list says so through the Swift API (`watchers.poll`, which calls
/// `listDidChange(at:)`), as an iOS app tells its table view; watchers' pages change in place.
/// Unwatched, the readings stand still.
final class CellarSensors: Sendable {
    struct Sensor: Sendable {
        var id: String
        var name: String
        /// The reading in tenths of its unit.
        var tenths: Int
        var unit: String
        var base: Int
    }

    private let sensors = Mutex<[Sensor]>([
        Sensor(id: "temperature", name: "Cellar temperature", tenths: 124, unit: "°C", base: 124),
        Sensor(id: "humidity", name: "Humidity", tenths: 710, unit: "%", base: 710),
        Sensor(id: "rack-a", name: "Rack A", tenths: 119, unit: "°C", base: 119),
        Sensor(id: "rack-b", name: "Rack B", tenths: 131, unit: "°C", base: 131),
        Sensor(id: "co2", name: "CO₂", tenths: 4500, unit: "ppm", base: 4500),
        Sensor(id: "light", name: "Light", tenths: 30, unit: "lux", base: 30),
    ])
    private let ticks = Mutex(0)

    static let path = "/sensors"

    /// The readings now.
    var readings: [Sensor] { sensors.withLock { $0 } }

    /// Moves one reading (the `tick`-th sensor, in turn) a little, deterministically.
    func tick(_ tick: Int) {
        sensors.withLock { sensors in
            let index = tick % sensors.count
            let step = [3, -2, 4, -5, 1, -1, 2][tick % 7]
            sensors[index].tenths = sensors[index].base + (sensors[index].tenths - sensors[index].base + step) % 15
        }
    }

    /// Mounts the list on `app`.
    func install(in app: App) {
        app.list(Self.path, title: "Sensors", summary: "The cellar's sensors, live: open it and watch the readings change") { _ in
            SensorsController(sensors: self.readings)
        }
        app.watchers.poll([Self.path], every: .seconds(1)) {
            self.tick(
                self.ticks.withLock { ticks in
                    ticks += 1
                    return ticks
                })
            return true
        }
    }
}

/// The sensors' readings, a row each, in a prototype cell with the value on the right.
struct SensorsController: TableController {
    let sensors: [CellarSensors.Sensor]

    func numberOfRows(inSection section: Int) -> Int { sensors.count }
    func titleForHeader(inSection section: Int) -> String? { "Readings" }
    func titleForFooter(inSection section: Int) -> String? { "A reading changes every second while this page is open." }
    func identifier(forRowAt indexPath: IndexPath) -> String { sensors[indexPath.row].id }

    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let sensor = sensors[indexPath.row]
        return DataCellProvider(prototype: "ValueCell", for: indexPath, data: ["title": sensor.name, "value": Self.reading(sensor)])
    }

    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? {
        let sensor = sensors[indexPath.row]
        return ["name": sensor.name, "value": Self.reading(sensor)]
    }

    func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let sensor = sensors[indexPath.row]
        return RowDetail(title: sensor.name, fields: [.init("Reading", Self.reading(sensor))])
    }

    /// `12.4 °C`: tenths with one decimal.
    static func reading(_ sensor: CellarSensors.Sensor) -> String {
        let sign = sensor.tenths < 0 ? "-" : ""
        let magnitude = abs(sensor.tenths)
        return "\(sign)\(magnitude / 10).\(magnitude % 10) \(sensor.unit)"
    }
}
