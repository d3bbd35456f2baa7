import ByteWriters

/// The writer a list's rows write their JSON into (``JSONItemWriting``): strings escaped with the
/// same rigour as HTML. It is ByteWriters' writer, named here so that an app importing Cellar can
/// use it without importing ByteWriters.
public typealias JSONWriter = ByteWriters.JSONWriter
