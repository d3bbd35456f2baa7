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
    }

    /// The sensors at rest.
    private static let sensors = [
        Sensor(id: "temperature", name: "Cellar temperature", tenths: 124, unit: "°C"),
        Sensor(id: "humidity", name: "Humidity", tenths: 710, unit: "%"),
        Sensor(id: "rack-a", name: "Rack A", tenths: 119, unit: "°C"),
        Sensor(id: "rack-b", name: "Rack B", tenths: 131, unit: "°C"),
        Sensor(id: "co2", name: "CO₂", tenths: 4500, unit: "ppm"),
        Sensor(id: "light", name: "Light", tenths: 30, unit: "lux"),
    ]

    /// How far a sensor's reading is from rest, in tenths, after its first, second, … move.
    private static let drift = [0, 3, 1, 5, 2, -2, -4, -1]

    /// Ticks so far: the readings are a function of it, so there is nothing else to guard.
    private let ticks = Atomic<Int>(0)

    static let path = "/sensors"

    /// The readings now. Tick `n` moves sensor `n % count`, so after `ticks` ticks sensor `i`
    /// has moved once for every `n` in `1...ticks` with `n % count == i`.
    var readings: [Sensor] {
        let ticks = ticks.load(ordering: .acquiring)
        let count = Self.sensors.count
        return Self.sensors.enumerated().map { index, sensor in
            let firstTick = index == 0 ? count : index
            let moves = ticks < firstTick ? 0 : (ticks - firstTick) / count + 1
            var moved = sensor
            moved.tenths += Self.drift[moves % Self.drift.count]
            return moved
        }
    }

    /// Moves the next sensor's reading.
    func tick() {
        ticks.add(1, ordering: .releasing)
    }

    /// Mounts the list on `app`.
    func install(in app: App) {
        app.list(Self.path, title: "Sensors", summary: "The cellar's sensors, live: open it and watch the readings change") { _ in
            SensorsController(sensors: self.readings)
        }
        app.watchers.poll([Self.path], every: .seconds(1)) {
            self.tick()
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
