import Glibc
import Synchronization

/// Signals that arrive while the screen is up. The handlers only set flags; the session's loop (the one thread
/// that talks to the terminal) sees them and acts.
enum SignalTrap {
    /// The terminating signal that arrived (SIGINT, SIGTERM, SIGHUP, SIGQUIT), or 0.
    static let termination = Atomic<Int32>(0)
    /// Set by SIGWINCH.
    static let resized = Atomic<Bool>(false)
    /// Set by SIGTSTP (Ctrl-Z).
    static let suspendRequested = Atomic<Bool>(false)
    /// Set by SIGCONT.
    static let continued = Atomic<Bool>(false)

    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Clears the signal mask (threads started by Dispatch may have left it blocked) and installs the handlers,
    /// without `SA_RESTART`, so that a signal also wakes the loop from its wait for a key.
    static func install() {
        _ = termination.load(ordering: .relaxed)
        _ = resized.load(ordering: .relaxed)
        _ = suspendRequested.load(ordering: .relaxed)
        _ = continued.load(ordering: .relaxed)
        var empty = sigset_t()
        sigemptyset(&empty)
        sigprocmask(SIG_SETMASK, &empty, nil)
        for signal in terminating {
            set(signal) { signal in SignalTrap.termination.store(signal, ordering: .relaxed) }
        }
        set(SIGWINCH) { _ in SignalTrap.resized.store(true, ordering: .relaxed) }
        set(SIGTSTP) { _ in SignalTrap.suspendRequested.store(true, ordering: .relaxed) }
        set(SIGCONT) { _ in SignalTrap.continued.store(true, ordering: .relaxed) }
        signal(SIGPIPE, SIG_IGN)
    }

    /// For a headless report: SIGINT and SIGTERM only set ``termination``, so that the run ends early and still
    /// prints its report, marked partial.
    static func installTermination() {
        _ = termination.load(ordering: .relaxed)
        var empty = sigset_t()
        sigemptyset(&empty)
        sigprocmask(SIG_SETMASK, &empty, nil)
        for signal in [SIGINT, SIGTERM] {
            set(signal) { signal in SignalTrap.termination.store(signal, ordering: .relaxed) }
        }
        signal(SIGPIPE, SIG_IGN)
    }

    /// `SIGINT`, `SIGTERM`, ...: a signal's name as reports and messages say it.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(signal)"
        }
    }

    /// Installs `handler` for `signal`.
    static func set(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }

    /// Stops the process as Ctrl-Z would, after the terminal was put back, and reinstalls the handler on resume.
    static func stopProcess() {
        suspendRequested.store(false, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(SIGTSTP, &action, nil)
        raise(SIGTSTP)
        set(SIGTSTP) { _ in SignalTrap.suspendRequested.store(true, ordering: .relaxed) }
    }
}
