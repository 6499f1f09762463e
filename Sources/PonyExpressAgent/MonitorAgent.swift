import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
import Synchronization

/// Serves a post office's statistics to `ponytop --attach`: one line in your app.
///
/// ```swift
/// let agent = try MonitorAgent.start(watching: .default)
/// // ... later, or when `agent` goes away:
/// agent.stop()
/// ```
///
/// The agent attaches a `PostOfficeMonitor` to the post office and listens on a Unix domain socket in the user's
/// runtime directory (`$XDG_RUNTIME_DIR/ponytop/`, else `/tmp/ponytop-<uid>/`, mode 0700; the socket is mode 0600),
/// named after the process so that `ponytop --list` finds it. Only viewers running as the app's own user, or root,
/// are let in. A snapshot is taken only when a viewer asks for one; between requests the agent costs what the
/// monitor costs. Whatever a viewer does, what it may cost the app is bounded by ``Limits``. See
/// <doc:AttachingPonytop> for the protocol and the security model.
public final class MonitorAgent: Sendable {
    /// The agent library's version, which viewers see in the hello.
    public static let libraryVersion = WireVersion.library

    /// The monitor attached to the post office; its snapshots are what viewers see.
    public let monitor: PostOfficeMonitor
    /// The Unix domain socket viewers connect to.
    public let socketPath: String
    /// The TCP port listened on, when a ``TCPListener`` was given.
    public let tcpPort: Int?
    /// What each viewer may cost the app.
    public let limits: Limits
    private let server: AgentServer
    private let stopped = Atomic<Bool>(false)
    private let findingLog: FindingLogTimer?

    private init(monitor: PostOfficeMonitor, limits: Limits, server: AgentServer, findingLog: FindingLogTimer?) {
        self.monitor = monitor
        self.limits = limits
        self.server = server
        self.findingLog = findingLog
        socketPath = server.socketPath
        tcpPort = server.tcpAddress?.port
    }

    /// Attaches a monitor to `office` and starts serving its snapshots.
    ///
    /// - Parameters:
    ///   - office: The post office to watch, usually `.default`.
    ///   - settings: The monitor's thresholds and capacities.
    ///   - limits: What each viewer may cost the app; see ``Limits`` for the defaults.
    ///   - tcp: Also listen on TCP on a loopback address, unauthenticated; `nil` (the default) for the Unix socket
    ///     only. Any other address is refused.
    ///   - runtimeDirectory: Where to put the socket instead of the user's runtime directory; it must be owned by
    ///     the user and closed to others.
    ///   - logging: Log each finding through swift-log when it appears and when it stops holding; `nil` (the
    ///     default) for none.
    /// - Returns: The running agent; it stops when you call ``stop()`` or release it.
    /// - Throws: ``AgentError`` when the directory is unsafe, a listener cannot be opened or is beyond loopback, or a
    ///   limit is out of range.
    public static func start(
        watching office: PostOffice, settings: MonitorSettings = MonitorSettings(), limits: Limits = Limits(),
        tcp: TCPListener? = nil, runtimeDirectory: String? = nil, logging: FindingLogging? = nil
    ) throws -> MonitorAgent {
        try limits.validate()
        try tcp?.validate()
        let directory = RuntimeDirectory(path: runtimeDirectory)
        try directory.prepare()
        removeStaleSockets(in: directory)
        let pid = getpid()
        let name = processName()
        let monitor = PostOfficeMonitor(settings: settings)
        let hello = Hello(
            pid: pid, processName: name, startedAt: WallClock.now(), quietViewerBound: limits.quietViewerBound,
            appRules: monitor.settings.ruleChanges)
        let server = try AgentServer(
            monitor: monitor, hello: hello, limits: limits,
            socketPath: directory.socketPath(pid: pid, processName: name), tcp: tcp)
        monitor.attach(to: office)
        let findingLog = logging.map { FindingLogTimer(monitor: monitor, options: $0) }
        return MonitorAgent(monitor: monitor, limits: limits, server: server, findingLog: findingLog)
    }

    /// The viewers being served now, over the socket and TCP.
    package var viewerCount: Int { server.viewers.current }

    /// Stops listening, ends every viewer's session, removes the socket and detaches the monitor. Calling it again
    /// does nothing.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        findingLog?.cancel()
        server.close()
        monitor.detach()
    }

    deinit {
        stop()
    }

    /// Removes the sockets of processes that no longer exist (or whose pid now belongs to a later process): what a
    /// crashed app leaves behind.
    static func removeStaleSockets(in directory: RuntimeDirectory) {
        for socket in directory.sockets() where socket.isLeftBehind || socket.pid == getpid() {
            socket.remove()
        }
    }

    /// The process's name, as `ps` shows it.
    static func processName() -> String {
        let fd = open("/proc/self/comm", O_RDONLY)
        guard fd >= 0 else { return "app" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return "app" }
        let name = String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: "\n")
        return name.isEmpty ? "app" : name
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var result = self
        while result.last == character { result.removeLast() }
        return result
    }
}
