import PonyExpress
import Synchronization

/// An object that counts the mail it receives, for registering by object and method in tests.
public final class TestRecipient: Sendable {
    private let count = Atomic<Int>(0)

    /// Creates a recipient that has received nothing.
    public init() {}

    /// How many pieces of mail it received.
    public var received: Int { count.load(ordering: .relaxed) }

    /// Receives any mail: register it with `office.register(Mail.self, recipient, TestRecipient.receive)`.
    public func receive() {
        count.add(1, ordering: .relaxed)
    }
}
