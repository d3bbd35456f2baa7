import ByteWriters

/// A value guarded by a lock, for what an app's handlers share across threads (a store in memory
/// that a form adds to): `store.withLock { $0.append(note) }`. It is ByteWriters' lock, the
/// package's one, which ThreadSanitizer sees (`Synchronization.Mutex`'s futex it does not), named
/// here so that an app importing Cellar can use it.
public typealias Locked = ByteWriters.Locked
