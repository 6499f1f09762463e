import Glibc

/// Puts the terminal back when ponytop crashes, then lets the crash continue so that Swift's backtrace prints.
///
/// The handler uses async-signal-safe calls only: `write` of bytes prepared in advance (leave the alternate screen,
/// show the cursor, reset attributes), `tcsetattr` of the modes saved before curses started, `sigaction` to
/// reinstall the previous handler, and `raise`.
enum CrashGuard {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT]

    nonisolated(unsafe) private static var resetBytes: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var savedModes: UnsafeMutablePointer<termios>?
    nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction>?

    /// Installs the handlers. Call once, on the terminal's thread, after curses started.
    ///
    /// - Parameters:
    ///   - reset: Bytes that put the terminal's screen back.
    ///   - modes: The terminal modes from before curses started.
    static func install(reset: [UInt8], modes: termios) {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, reset.count))
        _ = bytes.initialize(from: reset)
        resetBytes = UnsafeMutableBufferPointer(rebasing: bytes[0..<reset.count])
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        saved.initialize(to: modes)
        savedModes = saved
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        previous = actions
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in CrashGuard.restoreAndReraise(signal) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, actions + Int(signal))
        }
    }

    /// Restores the previous handlers, once the terminal was put back in the ordinary way.
    static func uninstall() {
        guard let previous else { return }
        for signal in signals { sigaction(signal, previous + Int(signal), nil) }
    }

    private static func restoreAndReraise(_ signal: Int32) {
        if let resetBytes, let base = resetBytes.baseAddress, resetBytes.count > 0 {
            _ = write(STDOUT_FILENO, base, resetBytes.count)
        }
        if let savedModes { tcsetattr(STDIN_FILENO, TCSANOW, savedModes) }
        if let previous { sigaction(signal, previous + Int(signal), nil) }
        raise(signal)
    }
}
