import CellarDatabase
import Foundation
import Testing

/// `/{table}.csv` over PostgreSQL is SQLite's, byte for byte: filters, sorts with NULLs and ties,
/// hostile text (quotes, commas, line breaks are quoted the same), blobs, a view read by offset,
/// and `readings`' 2,500 rows, which cross the 1,000-row batches (keyset batches: each batch
/// starts after the last row of the one before, so a tie across the boundary is where it fails).
extension PostgresListTests {
    @Test(arguments: [
        "/wines.csv", "/wines.csv?sort=-price", "/wines.csv?sort=notes&sort=-vintage", "/wines.csv?sort=-label&producer_id__isnull=0",
        "/wines.csv?name__contains=%22", "/wines.csv?vintage__gte=2003&sort=name", "/producers.csv", "/grapes.csv?sort=-color",
        "/stock.csv?sort=-bottles", "/stock.csv?cellar__contains=%25", "/cheap_wines.csv?sort=-price&sort=id", "/readings.csv",
        "/readings.csv?sort=sensor", "/readings.csv?sort=-value&sort=note", "/readings.csv?sort=note&value__isnull=0",
        "/readings.csv?sensor=s3&sort=-note", "/readings.csv?value__gt=10&sort=value", "/readings.csv?note__contains=quoted&sort=-id",
    ])
    func csvIsTheSame(target: String) throws {
        try expectSame(target)
    }

    /// The batches met exactly: every row once, as many as the list counts.
    @Test func csvAcrossBatchesHoldsEveryRowOnce() throws {
        let fixture = try fixture
        for target in ["/readings.csv?sort=sensor", "/readings.csv?sort=-value&sort=note"] {
            let csv = try fixture.postgres.get(target)
            #expect(csv.status == 200)
            let ids = csv.text.split(separator: "\r\n").dropFirst().map { $0.prefix { $0 != "," } }
            #expect(ids.count == 2_500 && Set(ids).count == 2_500, "\(target): \(ids.count) rows")
        }
    }
}
