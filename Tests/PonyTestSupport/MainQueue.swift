import Dispatch

/// Marks the main queue once, so that code can ask whether it runs there.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs on the main queue, where the main actor's jobs run.
///
/// Not `Thread.isMainThread`: in a test process on Linux the main queue may be drained by a thread other than the
/// process's first (after `dispatchMain()`), so the thread is the wrong witness of main-actor isolation.
public func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}
