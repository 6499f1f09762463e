import Logging
import PonyExpress

/// A swift-log handler that keeps every line, for tests to search.
struct LogCapture: LogHandler {
    final class Lines: Sendable {
        let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    let store: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.lines.withLock { $0.append("\(event.level): \(event.message)") }
    }

    /// A logger that writes into a new store.
    static func logger() -> (Logger, Lines) {
        let lines = Lines()
        return (Logger(label: "test") { _ in LogCapture(store: lines) }, lines)
    }
}
