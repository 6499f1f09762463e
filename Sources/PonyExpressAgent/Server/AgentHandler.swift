import Glibc
import NIOCore
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire

/// One viewer's session with the agent: the hello, then a snapshot per request. A peer of another user is told why
/// and dropped; a malformed or oversized frame ends the session with the reason.
final class AgentHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = Frame

    private let monitor: PostOfficeMonitor
    private let hello: Hello
    /// Why this peer may not attach, decided from its credentials before the session starts.
    private let refusal: String?
    /// Qualified names of the mail types seen so far: building one is slow.
    private var qualifiedNames: [TypeIdentity: String] = [:]

    init(monitor: PostOfficeMonitor, hello: Hello, refusal: String?) {
        self.monitor = monitor
        self.hello = hello
        self.refusal = refusal
    }

    func channelActive(context: ChannelHandlerContext) {
        if let refusal {
            fail(context: context, refusal)
            return
        }
        do {
            context.writeAndFlush(Self.wrapOutboundOut(try hello.frame()), promise: nil)
        } catch {
            fail(context: context, "cannot encode the hello: \(error)")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        do {
            guard frame.kind == .request else {
                throw WireError.unexpectedFrame("an agent accepts requests only, not a \(frame.kind) frame")
            }
            switch try WireDecoder.decode(Request.self, from: frame.payload) {
            case .snapshot(let recipientsOf):
                context.writeAndFlush(Self.wrapOutboundOut(try snapshot(recipientsOf: Set(recipientsOf))), promise: nil)
            case .fullSnapshot:
                context.writeAndFlush(Self.wrapOutboundOut(try snapshot(recipientsOf: nil)), promise: nil)
            case .resetStatistics:
                monitor.reset()
            }
        } catch {
            fail(context: context, "\(error)")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, "\(error)")
    }

    /// A snapshot with the recipients of the named mail types only, or of all (`nil`). The monitor builds the rows
    /// of those types only: at 100,000 live recipients, building them all is most of a request's cost.
    func snapshot(recipientsOf names: Set<String>?) throws -> Frame {
        let snapshot: MonitorSnapshot
        if let names {
            snapshot = monitor.snapshot(keepingRecipientsOf: { names.contains(qualifiedName(of: $0)) })
        } else {
            snapshot = monitor.snapshot()
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let takenAt = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return try SnapshotFrame(takenAt: takenAt, snapshot: snapshot).frame
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
