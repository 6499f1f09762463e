import PonyExpress
import Synchronization

/// Shared mail of the relay tests.
struct CacheInvalidated: Mail, Codable, Sendable, Equatable {
    var key: String
}

/// A recipient that keeps the mail it receives with its sender.
final class RelayInbox: Sendable {
    private let received = Mutex<[(mail: CacheInvalidated, sender: AnyObject?)]>([])

    func receive(_ mail: CacheInvalidated, _ sender: AnyObject?) {
        received.withLock { $0.append((mail, sender)) }
    }

    var keys: [String] { received.withLock { $0.map(\.mail.key) } }
    var senders: [AnyObject?] { received.withLock { $0.map(\.sender) } }
    var count: Int { received.withLock { $0.count } }
}
