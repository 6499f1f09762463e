import Foundation
import PonyExpressWire
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ponytop --attach`, `--list`, `--record` and `--replay` against `ponydemo`, a real app in its own process, with a
/// runtime directory of the test's own.
@Suite("ponytop attached to an app", .blocksItsThread, .serialized)
struct AttachTests {
    static let ponydemo = (PonyTopBinary.path as NSString).deletingLastPathComponent + "/ponydemo"

    /// A fresh runtime directory (what `XDG_RUNTIME_DIR` points at) and the agents' directory in it.
    struct Runtime {
        let root: String
        var agents: String { root + "/ponytop" }
        /// A runtime folder of its own, and the relay key `ponydemo --relay` needs (a test's, 32 bytes of 0x2A).
        var environment: [String: String?] {
            ["XDG_RUNTIME_DIR": root, "PONYEXPRESS_RELAY_KEY": "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio="]
        }

        init() {
            var template = Array("/tmp/ponytop-attach-XXXXXX".utf8CString)
            root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        }

        /// Starts `ponydemo` and waits for its socket.
        func startDemo(_ arguments: [String] = ["--scenario", "leaky"]) throws -> pid_t {
            let pid = try ChildProcess.spawn([AttachTests.ponydemo] + arguments, environment: environment)
            let appeared = waitUntil(timeout: 30) {
                ((try? FileManager.default.contentsOfDirectory(atPath: agents)) ?? []).contains {
                    $0.hasPrefix("\(pid).") && $0.hasSuffix(".sock")
                }
            }
            #expect(appeared, "ponydemo \(pid) made no socket in \(agents)")
            return pid
        }

        func stop(_ pid: pid_t) {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(for: pid, timeout: 10)
        }

        func ponytop(_ arguments: [String], timeout: Double = 60) throws -> ChildProcess.Result {
            try ChildProcess.run([PonyTopBinary.path] + arguments, environment: environment, timeout: timeout)
        }
    }

    @Test(
        "--list shows the app; --attach shows its mail types, drills in, says when it is gone and reconnects",
        .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func attachInTmux() throws {
        let runtime = Runtime()
        let first = try runtime.startDemo()
        // The socket comes before the agent answers: under a sanitizer on a loaded machine, by seconds.
        var list = try runtime.ponytop(["--list"])
        _ = waitUntil(timeout: 30, pollingEvery: 0.5) {
            list = (try? runtime.ponytop(["--list"])) ?? list
            return list.status == 0 && list.output.contains("\(first)  ponydemo")
        }
        #expect(list.status == 0, "--list: \(list.error)")
        #expect(list.output.contains("\(first)  ponydemo"), "--list printed: \(list.output)")
        #expect(list.output.contains(runtime.agents + "/\(first).ponydemo.sock"))

        let tmux = try TmuxSession(
            [PonyTopBinary.path, "--attach", "\(first)", "--refresh", "0.2"],
            environment: ["XDG_RUNTIME_DIR": runtime.root])
        #expect(tmux.waitFor("ponydemo pid \(first)"))
        #expect(tmux.waitFor("CartUpdated"))
        // The demo's legacy notification, bridged into the post office, is marked once its first post came through.
        #expect(tmux.waitUntilScreen { $0.contains("ThemeChanged ⇄") || $0.contains("ThemeChanged <>") })
        tmux.sendKeys("P")
        #expect(tmux.waitFor("P pauses ponytop's scenario, not an attached app"))
        tmux.sendKeys("Enter")
        #expect(tmux.waitFor("Recipients of "))
        #expect(tmux.waitUntilScreen { $0.contains(".swift:") })

        runtime.stop(first)
        #expect(tmux.waitFor("DISCONNECTED"))
        #expect(tmux.capture().contains("Recipients of "), "the last data stays on screen")

        let second = try runtime.startDemo()
        #expect(tmux.waitFor("ponydemo pid \(second)", timeout: 60))
        #expect(tmux.waitUntilScreen { !$0.contains("DISCONNECTED") })
        tmux.sendKeys("q")
        tmux.expectExit(0)
        runtime.stop(second)
    }

    @Test("--list keeps a stopped app's socket and says it does not answer; --attach to it says so")
    func stoppedApp() throws {
        let runtime = Runtime()
        let pid = try runtime.startDemo()
        defer { runtime.stop(pid) }
        let socket = runtime.agents + "/\(pid).ponydemo.sock"
        // What a debugger does: the app is alive, its socket accepts, nobody answers.
        kill(pid, SIGSTOP)
        let list = try runtime.ponytop(["--list"])
        #expect(list.status == 0)
        #expect(list.output.contains("did not answer within 3 s"), "as long as --attach waits: \(list.output)")
        #expect(access(socket, F_OK) == 0, "--list removed a live app's socket")
        let attach = try runtime.ponytop(["--attach", "\(pid)", "--report", "text", "--duration", "1"])
        #expect(attach.status == 2)
        #expect(attach.error.contains("did not answer within 3 s"), "\(attach.error)")
        kill(pid, SIGCONT)
        let resumed = try runtime.ponytop(["--list"])
        #expect(resumed.output.contains("\(pid)  ponydemo"), "--list printed: \(resumed.output)")
        #expect(!resumed.output.contains("did not answer"), "--list printed: \(resumed.output)")
    }

    @Test("--attach with --report json gives the kinds of findings and mail types a scenario run gives")
    func attachedReport() throws {
        let runtime = Runtime()
        let pid = try runtime.startDemo()
        defer { runtime.stop(pid) }
        let attached = try runtime.ponytop(["--attach", "\(pid)", "--report", "json", "--duration", "3"])
        let scenario = try runtime.ponytop(["--scenario", "leaky", "--report", "json", "--duration", "3"])
        #expect(attached.status == 0, "\(attached.error)")
        // Slowness depends on the machine's load during each run, which the run's findings log keeps: compare the
        // other kinds.
        func kinds(_ json: String, _ section: String, _ field: String) throws -> Set<String> {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let entries = object?[section] as? [[String: Any]] ?? []
            return Set(entries.filter { $0["category"] as? String != "slow" }.compactMap { $0[field] as? String })
        }
        #expect(try kinds(attached.output, "findings", "kind") == kinds(scenario.output, "findings", "kind"))
        // The demo also bridges one legacy notification into the post office: ThemeChanged.
        #expect(
            try kinds(attached.output, "mail_types", "name")
                == kinds(scenario.output, "mail_types", "name").union(["ThemeChanged"]))
        let object = try JSONSerialization.jsonObject(with: Data(attached.output.utf8)) as? [String: Any]
        #expect(object?["source"] as? NSDictionary == ["kind": "attached", "name": "ponydemo", "pid": Int(pid)])
        #expect(object?["scenario"] is NSNull)
    }

    @Test("a viewer that attaches late dates a leak from the app's history: a 1 s run sees it seconds old")
    func lateViewerSeesHistory() throws {
        let runtime = Runtime()
        let pid = try runtime.startDemo()
        defer { runtime.stop(pid) }
        // Runs of one second each, until the leak has held for a while in the app: a viewer that dated it from its
        // own first sight would never report it older than its run.
        var oldest = 0.0
        let dated = waitUntil(timeout: 60) {
            guard let run = try? runtime.ponytop(["--attach", "\(pid)", "--report", "json", "--duration", "1"]),
                let object = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
                let findings = object["findings"] as? [[String: Any]]
            else { return false }
            let leaks = findings.filter { $0["kind"] as? String == "growingRegistrations" }
            oldest = leaks.compactMap { $0["first_seen_seconds_ago"] as? Double }.max() ?? 0
            return oldest >= 4
        }
        #expect(dated, "the leak was dated at most \(oldest) s before the end of a 1 s run")
    }

    @Test(
        "--allow and --rule-setting apply attached and to its recording as to a scenario; rules the app cannot use are one line"
    )
    func attachedRules() throws {
        let runtime = Runtime()
        let pid = try runtime.startDemo(["--scenario", "oversubscribed"])
        defer { runtime.stop(pid) }
        func findings(_ arguments: [String]) throws -> (status: Int32, explanations: [String: String]) {
            let run = try runtime.ponytop(
                ["--attach", "\(pid)", "--report", "json", "--duration", "1"] + arguments)
            let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            let entries = object?["findings"] as? [[String: Any]] ?? []
            var explanations: [String: String] = [:]
            for entry in entries {
                if let kind = entry["kind"] as? String { explanations[kind] = entry["explanation"] as? String ?? "" }
            }
            return (run.status, explanations)
        }
        // 150 status bars on Reachability: over the app's threshold of 100, and over the viewer's of 50.
        let file = runtime.root + "/attached.ponyrec"
        let plain = try findings(["--fail-on", "oversubscription", "--record", file])
        #expect(plain.status == 1)
        #expect(plain.explanations["oversubscribed"]?.hasSuffix("more than the threshold of 100") == true)
        // The recording keeps the rule facts the agent sent (protocol 1.7): a replay judges them with its threshold.
        let replayed = try runtime.ponytop(
            ["--replay", file, "--report", "text", "--rule-setting", "oversubscribed.threshold=50"])
        #expect(replayed.status == 0, "\(replayed.error)")
        #expect(
            replayed.output.contains("Reachability has 150 live recipients, more than the threshold of 50"),
            "\(replayed.output)")
        let tighter = try findings(["--rule-setting", "oversubscribed.threshold=50"])
        #expect(tighter.explanations["oversubscribed"]?.hasSuffix("more than the threshold of 50") == true)
        let allowed = try findings(["--allow", "oversubscription", "--fail-on", "oversubscription"])
        #expect(allowed.status == 0)
        #expect(allowed.explanations["oversubscribed"] == nil)
        // The app's rules see its history since its monitor began: the note counts it with the run.
        let young = try runtime.ponytop([
            "--attach", "\(pid)", "--report", "text", "--duration", "1", "--fail-on", "leak",
        ])
        #expect(young.error.contains("ponytop: note: the app's monitor had watched for "), "\(young.error)")
        #expect(
            young.error.contains("s and --duration 1 s adds to it: less than the 60 s growingRegistrations watches"))
        // A window longer than the app keeps is refused before anything is judged: one line, exit status 2.
        let refused = try runtime.ponytop(
            ["--attach", "\(pid)", "--report", "text", "--rule-setting", "stalledQueue.window=600"])
        #expect(refused.status == 2)
        #expect(
            refused.error
                == "ponytop: --attach: pid \(pid): the viewer's rules cannot judge this app: stalledQueue.window "
                + "= 600: expected at most 60 s, the history the app's monitor kept (its historyLength)\n")
    }

    @Test("a recording replays to the state it recorded; a cut or damaged one is an error of one line in a report")
    func recordAndReplay() throws {
        let runtime = Runtime()
        let file = runtime.root + "/run.ponyrec"
        let recorded = try runtime.ponytop([
            "--scenario", "leaky", "--report", "json", "--duration", "2", "--record", file,
        ])
        #expect(recorded.status == 0, "\(recorded.error)")
        let replayed = try runtime.ponytop(["--replay", file, "--report", "json"])
        #expect(replayed.status == 0, "\(replayed.error)")
        func state(_ json: String) throws -> NSDictionary {
            var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
            for key in ["duration_seconds", "source", "scenario", "rate", "seed"] { object[key] = nil }
            // A replay names the recorded monitor's own counts beside the run's; a scenario's run is its lifetime.
            var totals = object["totals"] as? [String: Any] ?? [:]
            totals["app_lifetime"] = nil
            object["totals"] = totals
            return object as NSDictionary
        }
        #expect(try state(recorded.output) == state(replayed.output))
        let lifetime = try JSONSerialization.jsonObject(with: Data(replayed.output.utf8)) as? [String: Any]
        let totals = lifetime?["totals"] as? [String: Any]
        #expect(
            (totals?["app_lifetime"] as? [String: Any])?["posts"] as? Int == totals?["posts"] as? Int,
            "the recording starts with the scenario's run, so its window is the scenario's lifetime")

        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        try bytes.prefix(bytes.count - 7).write(to: URL(fileURLWithPath: file))
        let cut = try runtime.ponytop(["--replay", file, "--report", "json"])
        #expect(cut.status == 2)
        #expect(cut.output.isEmpty, "no report of partial data")
        let cutLine = "ponytop: --replay: damaged recording: cut short after frame "
        #expect(cut.error.hasPrefix(cutLine), "\(cut.error)")
        #expect(cut.error.hasSuffix(" bytes\n") && cut.error.filter { $0 == "\n" }.count == 1, "\(cut.error)")
        let failOn = try runtime.ponytop(["--replay", file, "--report", "text", "--fail-on", "any"])
        #expect(failOn.status == 2, "--fail-on never passes on a cut recording")

        // A damaged byte in the last frame's payload: the report names the frame, it does not describe the first.
        var damaged = [UInt8](bytes)
        damaged[damaged.count - 3] ^= 0xFF
        damaged[damaged.count - 20] ^= 0xFF
        try Data(damaged).write(to: URL(fileURLWithPath: file))
        let bent = try runtime.ponytop(["--replay", file, "--report", "json"])
        #expect(bent.status == 2)
        #expect(bent.error.hasPrefix("ponytop: --replay: damaged recording: damaged frame "), "\(bent.error)")

        // --record does not overwrite without --force.
        let again = try runtime.ponytop([
            "--scenario", "app", "--report", "text", "--duration", "0.5", "--record", file,
        ])
        #expect(again.status == 2)
        #expect(again.error == "ponytop: --record: '\(file)' exists; add --force to overwrite it\n")
        let forced = try runtime.ponytop([
            "--scenario", "app", "--report", "text", "--duration", "0.5", "--record", file, "--force",
        ])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try runtime.ponytop(["--replay", file, "--report", "text"]).status == 0)

        // Only regular files are replayed: a FIFO would block, /dev/zero never end.
        let fifo = runtime.root + "/fifo"
        mkfifo(fifo, 0o600)
        let pipe = try runtime.ponytop(["--replay", fifo, "--report", "text"], timeout: 20)
        #expect(
            pipe.error
                == "ponytop: --replay: '\(fifo)' is a FIFO, not a regular file; a recording is a file made with --record\n"
        )
        let zero = try runtime.ponytop(["--replay", "/dev/zero", "--report", "text"], timeout: 20)
        #expect(zero.status == 2)
        #expect(zero.error.contains("is a character device, not a regular file"), "\(zero.error)")

        try Data("not a recording".utf8).write(to: URL(fileURLWithPath: file))
        let bad = try runtime.ponytop(["--replay", file, "--report", "json"])
        #expect(bad.status == 2)
        #expect(
            bad.error == "ponytop: --replay: malformed data: not a ponytop recording (it does not start with PONYREC)\n"
        )
    }

    /// A command prefix that runs a program as uid 65534 (nobody), where this process can have a second uid: as
    /// root through setpriv or runuser, otherwise through passwordless sudo; `nil` where none of them works.
    static let asAnotherUser: [String]? = {
        if getuid() == 0 {
            if access("/usr/bin/setpriv", X_OK) == 0 {
                return ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
            }
            if access("/usr/sbin/runuser", X_OK) == 0 { return ["/usr/sbin/runuser", "-u", "nobody", "--"] }
            return nil
        }
        for sudo in ["/usr/bin/sudo", "/bin/sudo"] where access(sudo, X_OK) == 0 {
            let prefix = [sudo, "-n", "-u", "#65534", "--"]
            if (try? ChildProcess.run(prefix + ["/bin/true"]))?.status == 0 { return prefix }
        }
        return nil
    }()

    @Test(
        "a viewer of another user is refused with the reason, even when file modes would let it in",
        .enabled(
            if: asAnotherUser != nil,
            """
            no second uid here (needs root with setpriv or runuser, or passwordless sudo): the agent's peer-credential \
            check, its only guard against another user once file modes are opened, goes untested
            """))
    func otherUserRefused() throws {
        let runtime = Runtime()
        let pid = try runtime.startDemo()
        defer { runtime.stop(pid) }
        let socket = runtime.agents + "/\(pid).ponydemo.sock"
        var status = stat()
        lstat(runtime.agents, &status)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(lstat(socket, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        // Open the file modes, as a misconfiguration would: the peer-credential check must still refuse.
        chmod(runtime.root, 0o755)
        chmod(runtime.agents, 0o755)
        chmod(socket, 0o666)
        let prefix = try #require(Self.asAnotherUser)
        // setpriv keeps this process's environment: a HOME that the other user can read, and no config folder.
        let result = try ChildProcess.run(
            prefix + [PonyTopBinary.path, "--attach", socket, "--report", "json"],
            environment: ["HOME": "/nonexistent", "XDG_CONFIG_HOME": nil])
        #expect(result.status == 2)
        #expect(
            result.error.hasPrefix(
                "ponytop: --attach: refused: this app (pid \(pid)) accepts viewers of uid \(getuid())"),
            "\(result.error)")
        #expect(result.error.contains("uid 65534"))
        #expect(result.error.filter { $0 == "\n" }.count == 1)
    }

    @Test("--list removes the sockets of apps that are gone, only those; --attach to nothing says so")
    func staleAndMissing() throws {
        let runtime = Runtime()
        mkdir(runtime.agents, 0o700)
        // A socket file whose pid is alive (this test's) but older than the process: a crashed app's pid reused.
        let stale = runtime.agents + "/\(getpid()).ghost.sock"
        close(open(stale, O_CREAT | O_WRONLY, 0o600))
        var anHourAgo = [
            timeval(tv_sec: time(nil) - 3_600, tv_usec: 0), timeval(tv_sec: time(nil) - 3_600, tv_usec: 0),
        ]
        utimes(stale, &anHourAgo)
        // A socket of a pid that no process has.
        let gone = runtime.agents + "/2147483646.gone.sock"
        close(open(gone, O_CREAT | O_WRONLY, 0o600))
        let list = try runtime.ponytop(["--list"])
        #expect(list.output.contains("no app with the ponytop agent is running"))
        #expect(access(stale, F_OK) != 0)
        #expect(access(gone, F_OK) != 0)
        // A socket of a live process older than it (pid 1) that does not answer is kept, and listed as such.
        let alive = runtime.agents + "/1.init.sock"
        close(open(alive, O_CREAT | O_WRONLY, 0o600))
        let kept = try runtime.ponytop(["--list"])
        #expect(kept.output.contains(alive + "  (cannot connect"), "--list printed: \(kept.output)")
        #expect(access(alive, F_OK) == 0)
        let missing = try runtime.ponytop(["--attach", "999999", "--report", "json"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("no app with pid 999999"))
        let bad = try runtime.ponytop(["--attach", "nowhere", "--report", "json"])
        #expect(bad.status == 64, "a malformed address is a bad option")
        #expect(bad.error.contains("is not a pid, a socket path or HOST:PORT"))
    }

    @Test("an agent before 1.6 cannot judge with the viewer's rules: one line naming its version and the one needed")
    func olderAgentAndViewerRules() throws {
        let runtime = Runtime()
        mkdir(runtime.agents, 0o700)
        let path = runtime.agents + "/older.sock"
        let hello = Hello(pid: 4242, processName: "older", startedAt: 1, quietViewerBound: 10)
        let server = try FakeAgent(path: path, reply: try hello.frame(minor: 5).bytes)
        defer { server.stop() }
        let result = try runtime.ponytop(["--attach", path, "--report", "json", "--allow", "leak"], timeout: 30)
        #expect(result.status == 2)
        #expect(
            result.error
                == "ponytop: --attach: \(path): its agent speaks protocol 1.5, which judges with the app's own rules; "
                + "--allow, --warn, --rule-setting and the config file's rules need 1.6 or later: update PonyExpress "
                + "in the app, or drop them\n")
    }

    @Test("an app of another major protocol version, or one that sends garbage, is refused with the reason")
    func badAgents() throws {
        let runtime = Runtime()
        mkdir(runtime.agents, 0o700)
        // Hello frame: length 6, kind 1, version 99.0, then nothing the reader gets to.
        let replies: [(bytes: [UInt8], reason: String)] = [
            ([0, 0, 0, 5, 1, 0, 99, 0, 0], "wire protocol 99.0 is not supported"),
            (Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8), "exceeds the 16 MiB limit"),
            ([0, 0, 0, 3, 9, 9, 9], "unknown frame kind 9"),
            // An error frame whose reason would set the terminal's title and forge a line: printed escaped.
            (
                [0, 0, 0, 19, 4] + Array("no\u{1B}]0;owned\u{07}\r\nfake".utf8),
                "no\\u{1B}]0;owned\\u{7}\\u{D}\\u{A}fake"
            ),
        ]
        for (index, reply) in replies.enumerated() {
            let path = runtime.agents + "/fake\(index).sock"
            let server = try FakeAgent(path: path, reply: reply.bytes)
            let result = try runtime.ponytop(["--attach", path, "--report", "json"], timeout: 30)
            server.stop()
            #expect(result.status == 2)
            #expect(result.error.contains(reply.reason), "\(result.error)")
            #expect(result.error.filter { $0 == "\n" }.count == 1)
        }
    }
}

/// A Unix socket that answers every connection with fixed bytes and closes: an app that is not what it seems.
final class FakeAgent: @unchecked Sendable {
    private let fd: Int32
    private let thread: Thread

    init(path: String, reply: [UInt8]) throws {
        let fd = try listeningUnixSocket(at: path)
        self.fd = fd
        thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                _ = reply.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
