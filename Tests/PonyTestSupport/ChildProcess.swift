import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program with `posix_spawn`, an empty signal mask and default signal dispositions, so that signals reach
/// it even when the test runner's threads block them (which a plain fork/exec would pass on).
public enum ChildProcess {
    /// The result of a finished program.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public let status: Int32
        /// Everything it wrote to stdout.
        public let output: String
        /// Everything it wrote to stderr.
        public let error: String
    }

    /// Runs a program to completion, with stdin from /dev/null.
    ///
    /// - Parameters:
    ///   - arguments: The program's path and its arguments.
    ///   - environment: Variables to set or, when `nil`, remove, over the test process's environment.
    ///   - timeout: The program is killed after this many seconds.
    /// - Returns: Its status and output.
    public static func run(
        _ arguments: [String], environment: [String: String?] = [:], timeout: Double = 60
    ) throws -> Result {
        let outputFile = temporaryFile("out")
        let errorFile = temporaryFile("err")
        defer {
            unlink(outputFile)
            unlink(errorFile)
        }
        let pid = try spawn(arguments, environment: environment, stdout: outputFile, stderr: errorFile)
        let status = wait(for: pid, timeout: timeout)
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        return Result(status: status, output: output, error: error)
    }

    /// Starts a program with stdin from /dev/null and its output to files (or /dev/null).
    ///
    /// - Returns: Its process id.
    public static func spawn(
        _ arguments: [String], environment: [String: String?] = [:], stdout: String = "/dev/null",
        stderr: String = "/dev/null"
    ) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(program: arguments[0], code: result) }
        return pid
    }

    /// Waits for a process, killing it after `timeout` seconds.
    ///
    /// - Returns: Its exit status, or 128 + the signal that ended it.
    public static func wait(for pid: pid_t, timeout: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 { return -1 }
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(2_000)
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// A fresh path in the temporary directory.
    public static func temporaryFile(_ suffix: String) -> String {
        NSTemporaryDirectory() + "/ponytest-\(getpid())-\(UUID().uuidString).\(suffix)"
    }

    /// A program could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The program.
        public let program: String
        /// The `posix_spawn` error number.
        public let code: Int32
        public var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
    }
}
