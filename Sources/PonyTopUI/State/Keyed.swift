/// A row with a key that identifies it from frame to frame in selections, expansions and frozen orders.
protocol Keyed {
    /// The row's key.
    var key: String { get }
}
