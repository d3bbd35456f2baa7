import ByteWriters

/// The writer a cell renders into (``TableViewCell/render(into:)``): HTML with every piece of
/// text escaped. It is ByteWriters' writer, named here so that an app importing TableKit can use
/// it without importing ByteWriters.
public typealias HTMLWriter = ByteWriters.HTMLWriter
