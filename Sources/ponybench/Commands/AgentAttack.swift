import ArgumentParser
import Foundation
import Glibc
import PonyExpress
import PonyExpressAgent
import PonyExpressMonitor
import PonyExpressWire
import PonyScenarios

/// What hostile viewers cost an app with the agent started: each attack of issue 21 against an agent with its
/// default ``MonitorAgent/Limits`` in this process, while a scenario posts, with the resident memory's peak and the
/// posting rate measured.
struct AgentAttack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent-attack",
        abstract:
            "Attack an in-process agent (unread replies, partial and oversized frames, a connection flood, fuzz).",
        discussion: """
            Each attack runs until the agent has ended every hostile connection (or 60 s pass) while the scenario \
            posts; resident memory (/proc/self/statm) is sampled every 10 ms. The target is a peak within +32 MiB \
            of the baseline taken before the attack, and posting at the scenario's rate throughout.
            """)

    @Option(help: "The scenario that posts meanwhile.")
    var scenario = "app"

    func run() throws {
        #if DEBUG
            print("warning: this is a debug build; use `swift run -c release ponybench agent-attack`\n")
        #endif
        let office = PostOffice()
        var template = Array("/tmp/ponybench-attack-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let agent = try MonitorAgent.start(watching: office, runtimeDirectory: directory)
        defer {
            agent.stop()
            rmdir(directory)
        }
        let runner = ScenarioRunner(scenario: try Scenario.resolve(scenario), office: office)
        runner.start()
        defer { runner.stop() }
        Thread.sleep(forTimeInterval: 3)
        let limits = agent.limits
        print(
            "limits: \(limits.maximumViewers) viewers, requests of \(limits.maximumRequestBytes) bytes, frame timeout "
                + "\(limits.frameTimeout) s, unread-reply deadline \(limits.unreadReplyDeadline) s, write high-water "
                + "mark \(limits.writeBufferHighWaterMark >> 10) KiB\n")
        print("| attack | bound | peak RSS over baseline | posts/s before, during | outcome |")
        print("|---|---|---:|---:|---|")
        let request = try Request.fullSnapshot.frame.bytes
        var peers: [AttackPeer] = []
        // Each attack, the bound that holds it, and when the bench itself lets its peers go (`nil`: it waits for the
        // agent to end them).
        let attacks: [(name: String, bound: String, release: Double?, attack: () -> Void)] = [
            (
                "5,000 full-snapshot requests, replies never read",
                "reads stop above the high-water mark; unread-reply deadline", nil,
                {
                    guard let peer = AttackPeer(path: agent.socketPath) else { return }
                    peers = [peer]
                    var sent = 0
                    let end = Date().addingTimeInterval(10)
                    while sent < 5_000, Date() < end {
                        if peer.trySend(request) { sent += 1 } else { usleep(1_000) }
                    }
                }
            ),
            (
                "10 peers send 30 KiB of a 60 KiB frame, then go silent", "frame timeout", nil,
                {
                    peers = (0..<10).compactMap { _ in AttackPeer(path: agent.socketPath) }
                    for peer in peers {
                        peer.trySend(
                            [0, 0, 0xF0, 0, Frame.Kind.request.rawValue] + [UInt8](repeating: 7, count: 30_000))
                    }
                }
            ),
            (
                "10 peers announce 15 MiB frames and send 1 MiB each", "request size limit", nil,
                {
                    peers = (0..<10).compactMap { _ in AttackPeer(path: agent.socketPath) }
                    for peer in peers {
                        peer.trySend(
                            [0, 0xF0, 0, 0, Frame.Kind.request.rawValue] + [UInt8](repeating: 7, count: 1 << 20))
                    }
                }
            ),
            (
                "100 connections that stay and say nothing",
                "viewer cap; a newcomer takes a silent peer's slot; first-request timeout", nil,
                {
                    peers = (0..<100).compactMap { _ in AttackPeer(path: agent.socketPath) }
                }
            ),
            (
                "300 peers of random and mutated frames", "all of the above", 2,
                {
                    var random = SystemRandomNumberGenerator()
                    for _ in 0..<300 {
                        guard let peer = AttackPeer(path: agent.socketPath) else { continue }
                        var bytes = request
                        for _ in 0..<Int.random(in: 0..<4, using: &random) {
                            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255)
                        }
                        bytes += (0..<Int.random(in: 0..<64, using: &random)).map { _ in UInt8.random(in: 0...255) }
                        peer.trySend(bytes)
                        peers.append(peer)
                        if peers.count > 12 { peers.removeFirst() }
                    }
                }
            ),
        ]
        for (name, bound, release, attack) in attacks {
            let before = Self.postsPerSecond(agent.monitor, over: 2)
            let baseline = ResidentMemory.bytes() ?? 0
            var peak = baseline
            let postsAtStart = agent.monitor.snapshot().totals.posts
            let start = Date()
            attack()
            let end = start.addingTimeInterval(60)
            var ended = false
            while Date() < end {
                peak = max(peak, ResidentMemory.bytes() ?? 0)
                if let release, Date().timeIntervalSince(start) > release { peers.removeAll() }
                if peers.allSatisfy(\.isClosedByAgent), agent.viewerCount == 0 {
                    ended = true
                    break
                }
                usleep(10_000)
            }
            let seconds = Date().timeIntervalSince(start)
            let during = Double(agent.monitor.snapshot().totals.posts - postsAtStart) / seconds
            peers.removeAll()
            let grown = Double(peak - baseline) / 1_048_576
            let outcome =
                (ended ? "ended in \(String(format: "%.1f", seconds)) s" : "NOT ended in 60 s")
                + (grown <= 32 ? ", within +32 MiB" : ", OVER +32 MiB")
            print(
                "| \(name) | \(bound) | \(String(format: "%+.1f", grown)) MiB | "
                    + "\(Int(before.rounded())), \(Int(during.rounded())) | \(outcome) |")
        }
    }

    /// The post office's posts per second over the next `seconds`, from the monitor's totals.
    static func postsPerSecond(_ monitor: PostOfficeMonitor, over seconds: Double) -> Double {
        let first = monitor.snapshot().totals.posts
        Thread.sleep(forTimeInterval: seconds)
        return Double(monitor.snapshot().totals.posts - first) / seconds
    }
}

/// A hostile peer on an agent's Unix socket: writes without blocking and never reads.
final class AttackPeer {
    private let fd: Int32
    private var unsent: [UInt8] = []

    init?(path: String) {
        guard let fd = connectUnixSocket(path: path) else { return nil }
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(fd)
    }

    /// Writes what fits now; the rest goes first on the next call.
    @discardableResult
    func trySend(_ bytes: [UInt8]) -> Bool {
        unsent += bytes
        while !unsent.isEmpty {
            let count = unsent.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            unsent.removeFirst(count)
        }
        return true
    }

    /// Whether the agent closed this connection (what it sent may still be unread in it).
    var isClosedByAgent: Bool {
        // POLLRDHUP (0x2000): the peer closed its side.
        var status = pollfd(fd: fd, events: 0x2000, revents: 0)
        return poll(&status, 1, 0) > 0 && status.revents & (0x2000 | Int16(POLLHUP | POLLERR)) != 0
    }
}
