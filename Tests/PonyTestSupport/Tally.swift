import PonyExpress

/// A thread-safe log of values that handlers append to, for tests to read back.
public final class Tally<Value: Sendable>: @unchecked Sendable {
    private let values = Locked<[Value]>([])

    /// Creates an empty tally.
    public init() {}

    /// Appends a value.
    public func add(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// Everything added so far, in order.
    public var all: [Value] { values.withLock { $0 } }

    /// How many values were added.
    public var count: Int { values.withLock { $0.count } }
}
