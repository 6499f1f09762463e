import Glibc
import PonyExpressWire

/// The per-user directory where agents put their sockets: `$XDG_RUNTIME_DIR/ponytop/`, else `/tmp/ponytop-<uid>/`.
///
/// Created mode 0700; an existing one must belong to the user and be closed to everyone else, so that nobody else
/// can reach a socket in it, or plant one.
package struct RuntimeDirectory: Sendable {
    /// The directory's path.
    package let path: String

    /// The directory for this user: from the environment, or `path` when given.
    package init(path: String? = nil) {
        if let path {
            self.path = path
        } else if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
            self.path = runtime + "/ponytop"
        } else {
            self.path = "/tmp/ponytop-\(getuid())"
        }
    }

    /// Creates the directory if needed and checks its owner and mode.
    ///
    /// - Throws: ``AgentError/unsafeDirectory(_:)`` when it belongs to someone else or others may enter it.
    package func prepare() throws {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw AgentError.unsafeDirectory("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw AgentError.unsafeDirectory("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw AgentError.unsafeDirectory("\(path) is not a directory")
        }
        guard status.st_uid == getuid() else {
            throw AgentError.unsafeDirectory("\(path) belongs to uid \(status.st_uid), not to uid \(getuid())")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw AgentError.unsafeDirectory(
                "\(path) has mode \(String(status.st_mode & 0o777, radix: 8)); expected 700")
        }
    }

    /// The socket of the process `pid` named `processName`.
    package func socketPath(pid: Int32, processName: String) -> String {
        "\(path)/\(pid).\(AgentSocket.safeName(processName)).sock"
    }

    /// The agent sockets in the directory, by file name.
    package func sockets() -> [AgentSocket] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var found: [AgentSocket] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if let socket = AgentSocket(directory: path, fileName: name) { found.append(socket) }
        }
        return found.sorted { $0.pid < $1.pid }
    }
}

/// An agent's socket file: `<pid>.<process name>.sock`.
package struct AgentSocket: Sendable, Equatable {
    package let path: String
    package let pid: Int32
    package let processName: String

    package init?(directory: String, fileName: String) {
        guard fileName.hasSuffix(".sock") else { return nil }
        let stem = fileName.dropLast(5)
        guard let dot = stem.firstIndex(of: "."), let pid = Int32(stem[..<dot]), pid > 0 else { return nil }
        self.path = directory + "/" + fileName
        self.pid = pid
        self.processName = String(stem[stem.index(after: dot)...])
    }

    /// A process name as it may appear in a file name: letters, digits, `-` and `_`, at most 32 of them.
    static func safeName(_ name: String) -> String {
        let allowed = name.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": Character(scalar)
            default: "_"
            }
        }
        let safe = String(allowed.prefix(32))
        return safe.isEmpty ? "app" : safe
    }

    /// Whether a process with this pid exists (it may still be another program that reused the pid).
    package var processExists: Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Whether the app that made this socket is surely gone: no process has its pid, or the process that has it
    /// started after the socket was made (the pid was reused). A stopped, busy or slow app is not gone, whether it
    /// answers or not: only this may remove a socket.
    package var isLeftBehind: Bool {
        guard processExists else { return true }
        guard let started = ProcessStart.seconds(of: pid), let made = madeAt else { return false }
        // Both clocks count whole seconds here: a margin of two keeps an app that bound its socket in its first
        // second from looking younger than its socket.
        return started > made + 2
    }

    /// When the socket file was made (its modification time), in seconds since 1970.
    var madeAt: Double? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
    }

    /// Removes the socket file.
    package func remove() {
        unlink(path)
    }
}

/// When a process started, from `/proc/<pid>/stat` (clock ticks after boot) and `/proc/stat`'s `btime`.
enum ProcessStart {
    /// Seconds since 1970, or `nil` when the process or the figures cannot be read.
    static func seconds(of pid: Int32) -> Double? {
        guard let stat = contents(of: "/proc/\(pid)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")) else {
            return nil
        }
        // After the command's closing parenthesis come the fields from the third (state) on; starttime is the 22nd.
        let fields = stat[stat.index(after: close)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let ticks = Double(String(decoding: fields[19], as: UTF8.self)),
            let boot = bootTime()
        else { return nil }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return perSecond > 0 ? boot + ticks / perSecond : nil
    }

    private static func bootTime() -> Double? {
        guard let stat = contents(of: "/proc/stat") else { return nil }
        for line in stat.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array("btime ".utf8)) {
            return Double(String(decoding: line.dropFirst(6), as: UTF8.self))
        }
        return nil
    }

    private static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}
