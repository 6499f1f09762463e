import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for one test: `initdb` in a temporary folder, a free loopback port, its Unix
/// socket in its own folder, trust authentication (loopback only), stopped and deleted by ``stop()``.
///
/// As root, PostgreSQL's programs run as the `postgres` user (the server refuses to run as root); as anyone else,
/// as that user directly. Where PostgreSQL is not installed, ``start()`` throws ``Unavailable`` with the reason, for
/// the test to skip with. `initdb --no-sync`: a throwaway cluster needs no flush to disk, which was most of its
/// set-up time.
///
/// ```swift
/// let cluster = try PostgresCluster.start()
/// defer { cluster.stop() }
/// let url = cluster.url   // postgres://postgres@127.0.0.1:PORT/postgres
/// ```
public final class PostgresCluster: Sendable {
    /// Why no cluster could be started here.
    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The loopback port it listens on.
    public let port: Int
    /// The folder holding its data, socket and log.
    public let folder: String
    private let binaries: String

    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    public var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres" }

    /// Where the server's binaries are, or why there are none: the newest of /usr/lib/postgresql/*/bin.
    public static let binaries: Result<String, Unavailable> = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { access("\(root)/\($0)/bin/initdb", X_OK) == 0 }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        guard let newest = versions.last else {
            return .failure(
                Unavailable(
                    description: "PostgreSQL is not installed (no \(root)/*/bin/initdb; apt-get install postgresql)"))
        }
        if getuid() == 0, getpwnam("postgres") == nil {
            return .failure(
                Unavailable(description: "running as root and there is no postgres user to run the server as"))
        }
        return .success("\(root)/\(newest)/bin")
    }()

    /// Whether a cluster can be started here; the reason when not.
    public static var unavailableReason: String? {
        if case .failure(let reason) = binaries { return reason.description }
        return nil
    }

    private init(port: Int, folder: String, binaries: String) {
        self.port = port
        self.folder = folder
        self.binaries = binaries
    }

    /// Creates and starts a cluster.
    ///
    /// - Parameter tls: Whether the server also takes TLS, with a self-signed certificate for `localhost` made by
    ///   `openssl` (which no client trusts).
    /// - Returns: The running cluster.
    /// - Throws: ``Unavailable`` where PostgreSQL is not installed or does not start (with its log's last lines).
    public static func start(tls: Bool = false) throws -> PostgresCluster {
        let binaries = try self.binaries.get()
        var template = Array("/tmp/pony-pg.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Unavailable(description: "cannot create a temporary folder") }
        let folder = String(cString: made)
        chmod(folder, 0o755)
        let data = "\(folder)/pg"
        mkdir(data, 0o700)
        if getuid() == 0, let user = getpwnam("postgres") { chown(data, user.pointee.pw_uid, user.pointee.pw_gid) }
        let cluster = PostgresCluster(port: try freePort(), folder: folder, binaries: binaries)
        let initdb = try cluster.asPostgres("\(binaries)/initdb -D \(data)/data -A trust -U postgres --no-sync")
        guard initdb.status == 0 else {
            cluster.remove()
            throw Unavailable(description: "initdb failed: \(initdb.error.suffix(400))")
        }
        if tls {
            let certificate = try cluster.asPostgres(
                "cd \(data)/data && openssl req -new -x509 -days 1 -nodes -subj /CN=localhost -keyout server.key "
                    + "-out server.crt && chmod 600 server.key && printf \"ssl = on\\n\" >> postgresql.conf")
            guard certificate.status == 0 else {
                cluster.remove()
                throw Unavailable(description: "openssl could not make a certificate: \(certificate.error.suffix(400))")
            }
        }
        do {
            try cluster.startServer()
        } catch {
            cluster.remove()
            throw error
        }
        return cluster
    }

    /// Starts the server (again, after ``kill()``), on the same port and data, and waits until it accepts
    /// connections.
    public func startServer() throws {
        let data = "\(folder)/pg"
        let started = try asPostgres(
            "\(binaries)/pg_ctl -D \(data)/data -l \(data)/log -w -t 30 -o '-p \(port) -k \(data) -c listen_addresses=127.0.0.1' start"
        )
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: "\(data)/log", encoding: .utf8)) ?? ""
            throw Unavailable(description: "pg_ctl start failed: \(started.error.suffix(300)) \(log.suffix(400))")
        }
    }

    /// Stops the server at once, as a crash would (`pg_ctl -m immediate stop`); its data stays for ``startServer()``.
    public func kill() {
        _ = try? asPostgres("\(binaries)/pg_ctl -D \(folder)/pg/data -m immediate -w stop")
    }

    /// Stops the server and deletes the cluster.
    public func stop() {
        kill()
        remove()
    }

    /// Runs `psql` against the cluster.
    ///
    /// - Parameters:
    ///   - command: The SQL to run.
    ///   - user: The role to log in as (the cluster trusts every local login).
    /// - Returns: The result.
    @discardableResult
    public func psql(_ command: String, user: String = "postgres") throws -> ChildProcess.Result {
        let psql = access("\(binaries)/psql", X_OK) == 0 ? "\(binaries)/psql" : "/usr/bin/psql"
        return try ChildProcess.run(
            [
                psql, "-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                "-c", command,
            ], timeout: 30)
    }

    private func remove() {
        _ = try? ChildProcess.run(["/bin/rm", "-rf", folder], timeout: 30)
    }

    /// Runs a shell command as the `postgres` user when root, else as this user.
    private func asPostgres(_ command: String) throws -> ChildProcess.Result {
        if getuid() == 0 {
            return try ChildProcess.run(["/bin/su", "postgres", "-s", "/bin/sh", "-c", command], timeout: 60)
        }
        return try ChildProcess.run(["/bin/sh", "-c", command], timeout: 60)
    }

    /// A loopback port that was free a moment ago.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Unavailable(description: "cannot open a socket to find a free port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Unavailable(description: "cannot bind a loopback socket to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
