import Dispatch

/// Keeps the calling thread busy for at least `nanoseconds`, without sleeping: a handler that takes a known time.
///
/// - Parameter nanoseconds: How long to spin.
public func spin(nanoseconds: UInt64) {
    let deadline = DispatchTime.now().uptimeNanoseconds + nanoseconds
    while DispatchTime.now().uptimeNanoseconds < deadline {}
}
