import ByteWriters
import CoreMetrics
import Metrics
import MicroHTTP
import Prometheus
import TableKit

/// The server's numbers, through swift-metrics into a Prometheus registry: requests by route and
/// status, latency, bytes sent, connections in flight, and how well cells are recycled.
///
/// It observes the ``Server`` (``ServerObserver``) and is read at `/metrics`. Metric objects are
/// made once per route and status and cached, so counting a request takes one short lock.
public final class CellarMetrics: ServerObserver, @unchecked Sendable {
    /// The Prometheus registry the metrics live in.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let lock = Lock()
    // Guarded by `lock`.
    private var requestCounters: [RequestKey: CoreMetrics.Counter] = [:]
    private var latencyTimers: [String: Metrics.Timer] = [:]
    /// The metrics of the last request counted: most requests repeat the one before in method,
    /// route and status, and comparing the key is cheaper than hashing it (its route a string).
    private var lastRequest: (key: RequestKey, counter: CoreMetrics.Counter, timer: Metrics.Timer)?
    private var reportedCellsCreated = 0
    private var reportedCellsReused = 0

    private let bytesSent: CoreMetrics.Counter
    private let connectionsInFlight: CoreMetrics.Meter
    private let vanishedClients: CoreMetrics.Counter
    private let cellsCreated: CoreMetrics.Counter
    private let cellsReused: CoreMetrics.Counter
    private let reusePools: CoreMetrics.Meter
    private let bytesAwaitingSend: CoreMetrics.Meter
    private let rowErrors: CoreMetrics.Counter
    /// `cellar_row_changes_total` by list and action, made on first use.
    private var changeCounters: [ChangeKey: CoreMetrics.Counter] = [:]

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .seconds(2), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        bytesSent = CoreMetrics.Counter(label: "http_response_bytes_total", factory: factory)
        connectionsInFlight = CoreMetrics.Meter(label: "http_connections_in_flight", factory: factory)
        vanishedClients = CoreMetrics.Counter(label: "http_responses_abandoned_total", factory: factory)
        cellsCreated = CoreMetrics.Counter(label: "cellar_cells_created_total", factory: factory)
        cellsReused = CoreMetrics.Counter(label: "cellar_cells_reused_total", factory: factory)
        reusePools = CoreMetrics.Meter(label: "cellar_reuse_pools", factory: factory)
        bytesAwaitingSend = CoreMetrics.Meter(label: "http_response_buffered_bytes", factory: factory)
        rowErrors = CoreMetrics.Counter(label: "cellar_row_errors_total", factory: factory)
    }

    /// Counts a row shown as an error cell (``RowErrorReporter``): its cell could not be made.
    func countRowError() { rowErrors.increment() }

    /// Counts `rows` rows changed by one committed change (`insert`, `update`, `delete`, `move`,
    /// `upsert`) of the list at `list` (a table's path for a database's): the list and the action
    /// only, never a key or a value.
    public func countChange(list: String, action: String, rows: Int = 1) {
        let key = ChangeKey(list: list, action: action)
        let counter = lock.withLock {
            if let counter = changeCounters[key] { return counter }
            let made = CoreMetrics.Counter(
                label: "cellar_row_changes_total", dimensions: [("list", list), ("action", action)], factory: factory)
            changeCounters[key] = made
            return made
        }
        counter.increment(by: rows)
    }

    public func connectionOpened() { connectionsInFlight.increment() }
    public func connectionClosed() { connectionsInFlight.decrement() }

    public func requestCompleted(_ summary: RequestSummary) {
        let route = summary.route ?? "unmatched"
        let (counter, timer) = lock.withLock {
            // Found by method, route and status code; the labels are spelled only when a counter is made.
            let key = RequestKey(method: summary.method, route: route, status: summary.status?.code ?? -1)
            if let last = lastRequest, last.key == key { return (last.counter, last.timer) }
            let counter =
                requestCounters[key]
                ?? {
                    let status = summary.status.map { String($0.code) } ?? "none"
                    let made = CoreMetrics.Counter(
                        label: "http_requests_total", dimensions: [("method", summary.method.rawValue), ("route", route), ("status", status)],
                        factory: factory)
                    requestCounters[key] = made
                    return made
                }()
            let timer =
                latencyTimers[route]
                ?? {
                    let made = Metrics.Timer(label: "http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
                    latencyTimers[route] = made
                    return made
                }()
            lastRequest = (key, counter, timer)
            return (counter, timer)
        }
        counter.increment()
        timer.record(duration: summary.duration)
        bytesSent.increment(by: summary.bytesSent)
        if summary.outcome != .completed { vanishedClients.increment() }
    }

    /// The Prometheus text exposition, with the cell counters brought up to date from `statistics`
    /// and `http_response_buffered_bytes` set to `bufferedResponseBytes` (``App/bufferedResponseBytes``).
    public func exposition(cells statistics: ReuseStatistics, bufferedResponseBytes: Int) -> [UInt8] {
        lock.withLock {
            cellsCreated.increment(by: max(0, statistics.cellsCreated - reportedCellsCreated))
            cellsReused.increment(by: max(0, statistics.cellsReused - reportedCellsReused))
            reportedCellsCreated = max(reportedCellsCreated, statistics.cellsCreated)
            reportedCellsReused = max(reportedCellsReused, statistics.cellsReused)
        }
        reusePools.set(statistics.pools)
        // What the large-page budget is measured against: buffered bodies not yet sent.
        bytesAwaitingSend.set(bufferedResponseBytes)
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}

/// Which `http_requests_total` series a request counts in.
private struct RequestKey: Hashable {
    let method: HTTPMethod
    let route: String
    /// The status code, or -1 when no response was sent.
    let status: Int
}

/// Which `cellar_row_changes_total` series a change counts in.
private struct ChangeKey: Hashable {
    let list: String
    let action: String
}
