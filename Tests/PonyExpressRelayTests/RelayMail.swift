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

extension RelayKey {
    /// The relay tests' fleet key: 32 bytes of 0x2A (`KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=`).
    static let test = (try? RelayKey(bytes: [UInt8](repeating: 0x2A, count: 32)))!
    /// A key of another fleet.
    static let other = (try? RelayKey(bytes: [UInt8](repeating: 0x17, count: 32)))!
}
