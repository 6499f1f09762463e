import Glibc
import NIOCore
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire

/// One viewer's session with the agent: the hello, then a snapshot per request. A peer of another user, or one over
/// the viewer cap, is told why and dropped; a malformed or oversized frame ends the session with the reason.
///
/// What the peer may cost is bounded (``MonitorAgent/Limits``): the channel reads only when this handler asks
/// (`autoRead` off), and it asks only while the replies drain, so that a viewer that sends requests and never reads
/// the replies stops being read. Bytes are split into frames here, one request at a time, rather than by a decoder
/// that would hand on every request of a read at once.
final class AgentHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = Never
    typealias OutboundOut = Frame

    private let monitor: PostOfficeMonitor
    private let hello: Hello
    private let limits: MonitorAgent.Limits
    /// Why this peer may not attach, decided before the session starts.
    private let refusal: String?
    /// The viewers being served, shared by every connection of the agent.
    private let viewers: ViewerSlots
    /// The share of a core all sessions' snapshots may take.
    private let budget: SnapshotBudget
    /// This viewer's slot, once admitted.
    private var slot: UInt64?
    /// Ends the session if no whole request arrives within the first-request timeout.
    private var firstRequestTimer: Scheduled<Void>?
    /// When this viewer's last request was handled, on the monotonic clock: the next one waits
    /// ``MonitorAgent/Limits/minimumSnapshotInterval`` after it, whatever its kind, so that a peer sending keep-alives,
    /// resets or judge requests nonstop is paced like one asking for snapshots nonstop.
    private var lastRequest: UInt64?
    /// Resumes handling requests when this viewer's next request is due.
    private var paceTimer: Scheduled<Void>?
    /// Bytes received and not yet handled: at most one read's worth beyond a partial request.
    private var received: ByteBuffer?
    /// Ends the session if the frame under way does not complete in time.
    private var frameTimer: Scheduled<Void>?
    /// Ends the session if the replies stay unread.
    private var unreadTimer: Scheduled<Void>?
    /// Whether a read was asked for and has not delivered yet.
    private var reading = false
    /// Qualified names of the mail types seen so far: building one is slow.
    private var qualifiedNames: [TypeIdentity: String] = [:]
    /// This viewer's judge: the app's rules (and the viewer's changes, after a `judge` request) with a memory of its
    /// own, so that no viewer's cadence or reset moves another's findings, the finding log's or the metrics'.
    private var judge: FindingJudge
    /// Whether this viewer asked for the rule facts with its snapshots (a recording viewer, since 1.7).
    private var includesRuleFacts = false
    /// The floors of the facts this viewer judges itself (since 1.9), once it said so: the agent then judges nothing
    /// for it.
    private var viewerJudges: RuleFacts.Floors?

    init(
        monitor: PostOfficeMonitor, hello: Hello, limits: MonitorAgent.Limits, viewers: ViewerSlots,
        budget: SnapshotBudget, refusal: String?
    ) {
        self.monitor = monitor
        self.budget = budget
        self.hello = hello
        self.limits = limits
        self.viewers = viewers
        self.refusal = refusal
        judge = monitor.makeJudge()
    }

    func channelActive(context: ChannelHandlerContext) {
        if let refusal {
            fail(context: context, refusal)
            return
        }
        let channel = context.channel
        let admitted = viewers.admit(limit: limits.maximumViewers, quietBound: limits.quietViewerBound) { reason in
            channel.writeAndFlush(Frame(kind: .error, payload: Array(reason.utf8))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
        guard let admitted else {
            fail(
                context: context,
                "refused: this app (pid \(hello.pid)) already serves \(limits.maximumViewers) viewers, its limit "
                    + "(MonitorAgent.Limits.maximumViewers); try again when one has left")
            return
        }
        slot = admitted
        let timeout = limits.firstRequestTimeout
        firstRequestTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(timeout * 1e9))) {
            [weak self] in
            guard let self else { return }
            self.firstRequestTimer = nil
            self.fail(
                context: context,
                "no request within \(timeout) s of the hello (MonitorAgent.Limits.firstRequestTimeout)")
        }
        do {
            context.writeAndFlush(Self.wrapOutboundOut(try hello.frame()), promise: nil)
        } catch {
            fail(context: context, "cannot encode the hello: \(error)")
            return
        }
        readMore(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        frameTimer?.cancel()
        unreadTimer?.cancel()
        paceTimer?.cancel()
        firstRequestTimer?.cancel()
        received = nil
        if let slot {
            self.slot = nil
            viewers.leave(slot)
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = Self.unwrapInboundIn(data)
        if received == nil {
            received = bytes
        } else {
            received!.writeBuffer(&bytes)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        reading = false
        handleRequests(context: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            unreadTimer?.cancel()
            unreadTimer = nil
            handleRequests(context: context)
        } else if unreadTimer == nil {
            let deadline = limits.unreadReplyDeadline
            unreadTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(deadline * 1e9))) {
                [weak self] in
                guard let self, !context.channel.isWritable else { return }
                self.unreadTimer = nil
                // Its replies are not read, so an error frame would not be either.
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    /// Reads asked for by anything else are dropped: only this handler decides when the viewer is read (`autoRead`
    /// is off too).
    func read(context: ChannelHandlerContext) {}

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, "\(error)")
    }

    /// Handles the requests received, one at a time while the replies drain and as the viewer's pace allows, then
    /// reads more if they do.
    private func handleRequests(context: ChannelHandlerContext) {
        // A request waits for its time (``pace(context:)``): nothing more is read meanwhile.
        guard paceTimer == nil else { return }
        while context.channel.isActive, context.channel.isWritable, var buffer = received {
            defer { received = buffer.readableBytes > 0 ? buffer : nil }
            do {
                guard try hasFrame(in: buffer) else { break }
                heard()
                if pace(context: context) { return }
                guard let frame = try nextFrame(from: &buffer) else { break }
                try handle(frame, context: context)
            } catch {
                received = nil
                fail(context: context, "\(error)")
                return
            }
        }
        // Not writable: the replies are not drained, so nothing more is read until they are (or the unread-reply
        // deadline ends the session).
        guard context.channel.isActive, context.channel.isWritable else { return }
        if let received, received.readableBytes > 0 {
            // Part of a frame: it must complete within the frame timeout.
            if frameTimer == nil {
                let timeout = limits.frameTimeout
                frameTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(timeout * 1e9))) {
                    [weak self] in
                    guard let self else { return }
                    self.frameTimer = nil
                    self.fail(
                        context: context,
                        "a frame did not complete within \(timeout) s (MonitorAgent.Limits.frameTimeout)")
                }
            }
        } else {
            frameTimer?.cancel()
            frameTimer = nil
        }
        readMore(context: context)
    }

    /// Whether a whole frame has arrived at the front of `buffer`.
    ///
    /// - Throws: `WireError` when its length field announces more than the request limit: the session ends as soon
    ///   as the length arrives.
    private func hasFrame(in buffer: ByteBuffer) throws -> Bool {
        guard let length = try announcedLength(in: buffer) else { return false }
        return buffer.readableBytes >= Frame.headerLength + length
    }

    /// The body length the frame at the front of `buffer` announces, once its header arrived.
    private func announcedLength(in buffer: ByteBuffer) throws -> Int? {
        guard let header = buffer.getBytes(at: buffer.readerIndex, length: Frame.headerLength) else { return nil }
        let length = try Frame.bodyLength(header)
        guard length <= limits.maximumRequestBytes else {
            throw WireError.malformed(
                "a request of \(length) bytes exceeds the agent's limit of \(limits.maximumRequestBytes) "
                    + "(MonitorAgent.Limits.maximumRequestBytes)")
        }
        return length
    }

    /// Notes that a whole request arrived, though it may wait for its time: the peer is not silent.
    private func heard() {
        firstRequestTimer?.cancel()
        firstRequestTimer = nil
        if let slot { viewers.heard(from: slot) }
    }

    /// Schedules the handling of the next request when it must wait: for this viewer's minimum interval since its
    /// last snapshot, and for the agent's share of a core. Returns whether it must.
    private func pace(context: ChannelHandlerContext) -> Bool {
        let now = MonotonicClock.now()
        let own = lastRequest.map { $0 &+ UInt64(limits.minimumSnapshotInterval * 1e9) } ?? 0
        let due = Swift.max(own, budget.earliestStart)
        guard due > now else { return false }
        // The frame is whole: its time to arrive no longer runs.
        frameTimer?.cancel()
        frameTimer = nil
        paceTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(due - now))) {
            [weak self] in
            guard let self else { return }
            self.paceTimer = nil
            self.handleRequests(context: context)
        }
        return true
    }

    /// Takes one whole frame off the front of `buffer`, or returns `nil` when it has not all arrived.
    private func nextFrame(from buffer: inout ByteBuffer) throws -> Frame? {
        guard let length = try announcedLength(in: buffer) else { return nil }
        guard buffer.readableBytes >= Frame.headerLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: Frame.headerLength)
        let frame = try Frame(body: buffer.readableBytesView.prefix(length))
        buffer.moveReaderIndex(forwardBy: length)
        // A whole frame arrived: the next one has its own time.
        frameTimer?.cancel()
        frameTimer = nil
        return frame
    }

    private func handle(_ frame: Frame, context: ChannelHandlerContext) throws {
        guard frame.kind == .request else {
            throw WireError.unexpectedFrame("an agent accepts requests only, not a \(frame.kind) frame")
        }
        let request = try WireDecoder.decode(Request.self, from: frame.payload)
        lastRequest = MonotonicClock.now()
        switch request {
        case .snapshot(let recipientsOf):
            context.writeAndFlush(Self.wrapOutboundOut(try snapshot(recipientsOf: Set(recipientsOf))), promise: nil)
        case .fullSnapshot:
            context.writeAndFlush(Self.wrapOutboundOut(try snapshot(recipientsOf: nil)), promise: nil)
        case .resetStatistics:
            // The viewer's own findings only: the app's counters are every consumer's (its metrics' too).
            judge.reset()
        case .judge(let overrides):
            do {
                judge = try monitor.makeJudge(overriding: overrides)
            } catch {
                throw RefusedRules(
                    description:
                        "this app cannot judge with the viewer's rules: \(error.setting) = \(error.value): "
                        + "expected \(error.expected)")
            }
        case .includeRuleFacts:
            includesRuleFacts = true
        case .factsToJudge(let floors):
            viewerJudges = floors
        case .keepAlive:
            // Heard (``heard()``): that is all it is for, but it took this viewer's pace like any request.
            break
        }
    }

    private func readMore(context: ChannelHandlerContext) {
        guard !reading else { return }
        reading = true
        context.read()
    }

    /// A snapshot with the recipients of the named mail types only, or of all (`nil`). The monitor builds the rows
    /// of those types only: at 100,000 live recipients, building them all is most of a request's cost.
    func snapshot(recipientsOf names: Set<String>?) throws -> Frame {
        let cpu = SnapshotBudget.threadCPUTime()
        defer { budget.spent(cpu: SnapshotBudget.threadCPUTime() &- cpu, endingAt: MonotonicClock.now()) }
        let isKept: (TypeIdentity) -> Bool = { names?.contains(self.qualifiedName(of: $0)) ?? true }
        if let floors = viewerJudges {
            let snapshot = monitor.unjudgedSnapshot(keepingRecipientsOf: isKept, factsFor: floors)
            return try SnapshotFrame(takenAt: WallClock.now(), snapshot: snapshot).frame
        }
        var snapshot = monitor.snapshot(keepingRecipientsOf: isKept, judgedBy: judge, factsInFull: includesRuleFacts)
        if !includesRuleFacts { snapshot.dropRuleFacts() }
        return try SnapshotFrame(takenAt: WallClock.now(), snapshot: snapshot).frame
    }

    /// A mail type's qualified name, built once per session.
    private func qualifiedName(of mailType: TypeIdentity) -> String {
        if let name = qualifiedNames[mailType] { return name }
        let name = mailType.qualifiedName
        qualifiedNames[mailType] = name
        return name
    }

    /// Tells the peer why, then closes.
    private func fail(context: ChannelHandlerContext, _ reason: String) {
        guard context.channel.isActive else { return }
        let frame = Frame(kind: .error, payload: Array(reason.utf8))
        context.writeAndFlush(Self.wrapOutboundOut(frame)).whenComplete { _ in }
        context.close(promise: nil)
    }
}

/// A `judge` request the app cannot honour, said to the viewer in one line before the session ends.
private struct RefusedRules: Error, CustomStringConvertible {
    let description: String
}
