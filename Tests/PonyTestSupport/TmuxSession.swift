import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A program running in a real terminal: a tmux server of its own (own socket, no config), one pane of a given
/// size, driven with keys and read with `capture-pane`. Waits poll with deadlines; nothing sleeps blindly.
///
/// ```swift
/// let tmux = try TmuxSession(command: "/path/to/ponytop")
/// #expect(tmux.waitFor("Mail types"))
/// tmux.sendKeys("q")
/// ```
///
/// The pane runs `sh -c`, which records the program's pid in ``pidFile``, its exit status in `rc`, the terminal
/// modes after it ended in `stty` (`stty -a`), then prints `DONE` and idles, so the pane stays readable.
public final class TmuxSession {
    /// The session's own directory: socket, pid, rc and stty files.
    public let directory: String
    private let socket: String
    private static let executable: String = {
        let candidates: [String] = ["/usr/bin/tmux", "/usr/local/bin/tmux"]
        return candidates.first { access($0, X_OK) == 0 } ?? "/usr/bin/tmux"
    }()

    /// Whether tmux is installed.
    public static var isAvailable: Bool { access(executable, X_OK) == 0 }

    /// Starts a program in a new detached tmux server.
    ///
    /// - Parameters:
    ///   - arguments: The program and its arguments.
    ///   - width: Pane width.
    ///   - height: Pane height.
    ///   - environment: Variables for the pane (`LANG=C.UTF-8`, `SWIFT_BACKTRACE=interactive=no` and an empty
    ///     `NO_COLOR` are set unless given here).
    ///   - prefix: Shell words put before the program, such as `env -u TERM`.
    public init(
        _ arguments: [String], width: Int = 120, height: Int = 40, environment: [String: String] = [:],
        prefix: String = ""
    ) throws {
        directory = NSTemporaryDirectory() + "/ponytmux-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/sock"
        var variables = [
            "LANG": "C.UTF-8", "NO_COLOR": "", "SWIFT_BACKTRACE": "interactive=no", "TERM": "xterm-256color",
        ]
        for (name, value) in environment { variables[name] = value }
        let program = arguments.map(Self.quote).joined(separator: " ")
        let script =
            "\(prefix) sh -c 'echo $$ > \(directory)/pid; exec \"$0\" \"$@\"' \(program); "
            + "echo EXIT=$? > \(directory)/rc; stty -a > \(directory)/stty; echo DONE; sleep 120"
        var command = [
            Self.executable, "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(width)", "-y",
            "\(height)",
        ]
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) { command += ["-e", "\(name)=\(value)"] }
        command.append(script)
        let pid = try ChildProcess.spawn(command)
        let status = ChildProcess.wait(for: pid, timeout: 10)
        guard status == 0 else { throw StartError(status: status) }
    }

    deinit {
        close()
    }

    /// Ends the tmux server, makes sure the program is gone, and removes the session's files.
    ///
    /// A program that outlives its pane is killed after 10 s: under AddressSanitizer, a ponytop that quit with `q`
    /// and got the server's hang-up during its exit-time leak check once hung in LeakSanitizer's stop-the-world,
    /// spinning on one of CI's two cores through every pass after it.
    public func close() {
        let program = read("pid").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        if let pid = try? ChildProcess.spawn([Self.executable, "-S", socket, "kill-server"]) {
            _ = ChildProcess.wait(for: pid, timeout: 5)
        }
        if let program, !waitUntil(timeout: 10, pollingEvery: 0.01, { !Self.isRunning(program) }) {
            kill(program, SIGKILL)
            // SIGKILL is delivered, not awaited: on a loaded machine the process was still listed as running the
            // moment after (CI, stop 45). The kernel ends it as soon as it is scheduled.
            waitUntil(timeout: 10, pollingEvery: 0.01) { !Self.isRunning(program) }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Whether a process is alive: it exists and is not a zombie (which a container's init may never reap).
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: nameEnd)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    /// The program's process id, once the pane started it.
    public var programPID: pid_t? {
        var pid: pid_t?
        waitUntil(timeout: 10) {
            pid = read("pid").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return pid != nil
        }
        return pid
    }

    /// A file the pane wrote in the session directory (`rc`, `stty`, `pid`).
    public func read(_ name: String) -> String? {
        try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// Runs a tmux command against this server.
    ///
    /// - Returns: Its standard output.
    @discardableResult
    public func tmux(_ arguments: String...) -> String {
        tmux(arguments)
    }

    @discardableResult
    private func tmux(_ arguments: [String]) -> String {
        (try? ChildProcess.run([Self.executable, "-S", socket] + arguments, timeout: 10).output) ?? ""
    }

    /// The pane's text now.
    public func capture() -> String {
        tmux("capture-pane", "-p", "-t", "t")
    }

    /// The pane's text now, with its colours and attributes as escape sequences.
    public func captureWithEscapes() -> String {
        tmux("capture-pane", "-p", "-e", "-t", "t")
    }

    /// A format variable of the pane, such as `alternate_on` or `cursor_flag`.
    public func paneVariable(_ name: String) -> String {
        tmux("display-message", "-p", "-t", "t", "#{\(name)}").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How long a wait gives the screen by default. A deadline, not a pause: a screen that is ready ends the wait at
    /// once. It is generous because CI runs the whole suite, once under AddressSanitizer, on two cores, and a miss
    /// there costs a run; the misses seen so far were the tests' own (the Reliability article's CI section).
    public static let defaultTimeout: Double = 45

    /// Waits until the pane shows `text`.
    ///
    /// - Returns: Whether it did before the deadline.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = defaultTimeout) -> Bool {
        waitUntil(timeout: timeout, pollingEvery: 0.02) { capture().contains(text) }
    }

    /// Waits until the pane's text passes a test.
    ///
    /// - Returns: Whether it did before the deadline.
    @discardableResult
    public func waitUntilScreen(timeout: Double = defaultTimeout, _ condition: (String) -> Bool) -> Bool {
        waitUntil(timeout: timeout, pollingEvery: 0.02) { condition(capture()) }
    }

    /// Sends keys in tmux's names (`Enter`, `Escape`, `Down`, `C-c`, or literal text).
    public func sendKeys(_ keys: String...) {
        tmux(["send-keys", "-t", "t"] + keys)
    }

    /// Sends text literally, character by character.
    public func type(_ text: String) {
        tmux(["send-keys", "-t", "t", "-l", text])
    }

    /// Resizes the pane's window (the program gets SIGWINCH).
    public func resize(width: Int, height: Int) {
        tmux("resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)")
    }

    /// Waits for the pane's closing `DONE` line.
    ///
    /// - Returns: The program's exit status, or `nil` if it did not end in time.
    public func waitForExit(timeout: Double = 15) -> Int32? {
        guard waitUntilScreen(timeout: timeout, { $0.split(separator: "\n").contains("DONE") }) else { return nil }
        guard let rc = read("rc"), let value = rc.split(separator: "=").last else { return nil }
        return Int32(value.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits for the program to end and expects `status`. On a miss the issue carries the pane's last lines,
    /// scrollback included, which is where a sanitizer's report or a one-line error went after the screen was restored.
    ///
    /// - Parameters:
    ///   - status: The exit status expected.
    ///   - timeout: How long the program has to end.
    public func expectExit(
        _ status: Int32 = 0, timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let ended = waitForExit(timeout: timeout)
        #expect(
            ended == status,
            "exit status \(ended.map(String.init) ?? "none: still running"); the pane's last lines:\n\(transcript())",
            sourceLocation: sourceLocation)
    }

    /// The pane's last `lines` lines, scrollback included (tmux keeps 2,000).
    public func transcript(lines: Int = 80) -> String {
        let text = tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", "t")
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Quotes a word for `sh`.
    public static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// tmux could not start.
    public struct StartError: Error, CustomStringConvertible {
        let status: Int32
        public var description: String { "tmux new-session failed with status \(status)" }
    }
}
