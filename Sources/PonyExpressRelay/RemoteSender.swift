#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sender of mail that arrived from another process: which host, process and relay instance posted it.
///
/// A ``PostgresRelay`` posts relayed mail with one `RemoteSender` per remote process (the same object for all of
/// that process's mail), so the post office's sender filters choose local, remote or both:
///
/// ```swift
/// office.register(self) { me in { (mail: CacheInvalidated, from: RemoteSender) in me.evict(mail.key) } }
/// ```
public final class RemoteSender: Sendable, CustomStringConvertible {
    /// The host name of the process that posted the mail.
    public let host: String
    /// Its process id.
    public let processId: Int32
    /// Its relay's ``RelayConfiguration/instance``.
    public let instance: String
    /// A random id of its relay, new at each start: what tells two relays apart.
    public let relayId: String

    init(host: String, processId: Int32, instance: String, relayId: String) {
        self.host = host
        self.processId = processId
        self.instance = instance
        self.relayId = relayId
    }

    /// `instance (host pid N)`.
    public var description: String { "\(instance) (\(host) pid \(processId))" }

    /// This host's name.
    static let localHost: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let capacity = buffer.count - 1
        guard gethostname(&buffer, capacity) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// This process's id.
    static var localProcessId: Int32 { getpid() }
}
