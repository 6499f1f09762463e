import PonyExpress
import PonyExpressRelay

/// Shared mail of the relay tests.
struct CacheInvalidated: Mail, Codable, Sendable, Equatable {
    var key: String
}

/// A recipient that keeps the mail it receives with its sender.
final class RelayInbox: Sendable {
    private let received = Locked<[(mail: CacheInvalidated, sender: RemoteSender?)]>([])

    func receive(_ mail: CacheInvalidated, _ sender: AnyObject?) {
        let remote = sender as? RemoteSender
        received.withLock { $0.append((mail, remote)) }
    }

    var keys: [String] { received.withLock { $0.map(\.mail.key) } }
    /// The remote sender of each mail, `nil` for local mail.
    var senders: [RemoteSender?] { received.withLock { $0.map(\.sender) } }
    var count: Int { received.withLock { $0.count } }
}
