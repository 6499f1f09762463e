/// A post and the runs of its synchronous handlers, in the order they ran, handed to a ``DeliveryBatchTap``.
///
/// It lives on the posting thread's stack: it cannot be copied, and is valid only during the call it is passed to.
/// Copy out the ``Posting`` and ``HandlerRun`` values to keep them.
public struct DeliveryBatch: ~Copyable {
    /// The most handler runs one batch holds; a post to more synchronous recipients hands over several batches.
    ///
    /// Thirty-two runs of 24 bytes fit in the 1 KiB that `withUnsafeTemporaryAllocation` keeps on the stack. At 64
    /// the batch went to the heap, and a monitored post to one recipient rose from 832 to 1,234 instructions
    /// (`ponybench instructions`).
    public static let capacity = 32

    /// The post the handler runs belong to.
    public var posting: Posting { postingAddress.pointee }
    /// Whether this is the post's last batch: the one that stands for the post, which a batching tap is not sent
    /// as a ``TapEvent/posted(_:)`` event. Earlier batches of the same post only hold handler runs.
    public let completesPost: Bool
    private let runs: UnsafeBufferPointer<HandlerRun>
    /// The post, where the posting thread keeps it: a copy made for each batch was read back right after the stores
    /// that made it, and the wide loads of the copy stalled on them (`perf annotate`: a tenth of a monitored post).
    private let postingAddress: UnsafePointer<Posting>

    init(posting: UnsafePointer<Posting>, runs: UnsafeBufferPointer<HandlerRun>, completesPost: Bool) {
        postingAddress = posting
        self.runs = runs
        self.completesPost = completesPost
    }

    /// How many handler runs the batch holds; none for a post without synchronous recipients.
    public var count: Int { runs.count }

    /// The handler run at `index`, from 0 to ``count`` - 1.
    public subscript(index: Int) -> HandlerRun { runs[index] }

    /// The handler run at `index` as a ``TapEvent/delivered(_:)`` event would carry it.
    public func delivery(at index: Int) -> Delivery {
        let run = runs[index]
        return Delivery(
            postId: posting.postId, recipient: run.recipient, mailType: posting.mailType, queueLabel: nil,
            postedAt: posting.time, startedAt: run.startedAt, finishedAt: run.finishedAt, nestedTime: run.nestedTime)
    }
}
