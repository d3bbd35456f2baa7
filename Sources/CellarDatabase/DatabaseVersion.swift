import Synchronization

/// The version of a database's contents that validators are made from: the same on every
/// connection of this process, and never reused, across restarts too.
///
/// SQLite's `data_version` changes on a connection when any other connection, in any process, has
/// committed since that connection last looked; but each connection counts for itself and starts
/// again when opened. So each reader compares its connection's value with the one it saw last and,
/// on a difference — or on a connection's first look, when it cannot know what it missed — moves
/// one process-wide generation on. A version is the generation with a number drawn when the
/// process starts, so a restart never repeats one. A page is labelled with the generation seen
/// before its rows are read, so a label is never newer than the rows under it.
final class DatabaseVersion: Sendable {
    private let boot = UInt64.random(in: .min ... .max)
    private let generation = Atomic<UInt64>(0)

    /// The version as of `connection`'s latest look at the file.
    func observe(_ connection: SQLiteConnection) throws(DatabaseError) -> String {
        let current = try connection.dataVersion
        if connection.observedDataVersion != current {
            connection.observedDataVersion = current
            generation.add(1, ordering: .sequentiallyConsistent)
        }
        return token(generation.load(ordering: .sequentiallyConsistent))
    }

    /// The generation last reached, without looking at the file.
    var latestGeneration: UInt64 { generation.load(ordering: .sequentiallyConsistent) }

    private func token(_ generation: UInt64) -> String {
        String(boot, radix: 36) + "-" + String(generation, radix: 36)
    }
}
