/// How many live recipients a mail type has, by kind and by delivery queue.
public struct RecipientCounts: Sendable, Codable, Hashable {
    /// All live recipients.
    public let total: Int
    /// Recipients registered as an object and a method (held weakly).
    public let objects: Int
    /// Recipients registered as a block (held strongly).
    public let blocks: Int
    /// Live recipients by queue label; synchronous recipients are counted under `"sync"`.
    public let byQueue: [String: Int]

    /// The label under which ``byQueue`` counts recipients delivered synchronously on the posting thread.
    public static let synchronousLabel = "sync"

    /// No recipients.
    public static let none = RecipientCounts(total: 0, objects: 0, blocks: 0, byQueue: [:])

    /// Creates recipient counts.
    ///
    /// - Parameters:
    ///   - total: All live recipients.
    ///   - objects: Object-and-method recipients.
    ///   - blocks: Block recipients.
    ///   - byQueue: Recipients by queue label, `"sync"` for synchronous delivery.
    public init(total: Int, objects: Int, blocks: Int, byQueue: [String: Int]) {
        self.total = total
        self.objects = objects
        self.blocks = blocks
        self.byQueue = byQueue
    }
}
