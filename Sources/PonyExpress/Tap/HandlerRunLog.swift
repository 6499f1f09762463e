/// The handler runs of one post not yet handed to its batching taps: a fixed buffer on the posting thread's stack.
struct HandlerRunLog {
    let runs: UnsafeMutablePointer<HandlerRun>
    var count = 0

    init(_ runs: UnsafeMutablePointer<HandlerRun>) {
        self.runs = runs
    }
}
