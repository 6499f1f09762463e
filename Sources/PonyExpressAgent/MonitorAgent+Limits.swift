extension MonitorAgent {
    /// What one viewer may cost the app: the bounds the agent holds every connection to, whatever the peer does.
    ///
    /// ```swift
    /// var limits = MonitorAgent.Limits()
    /// limits.maximumViewers = 4
    /// let agent = try MonitorAgent.start(watching: .default, limits: limits)
    /// ```
    ///
    /// A viewer's requests are read only while its replies drain: the agent handles one request at a time, and stops
    /// reading while more than ``writeBufferHighWaterMark`` bytes of replies wait to be sent. A viewer that leaves
    /// them unread for ``unreadReplyDeadline`` seconds is disconnected. So each viewer holds at most about
    /// ``writeBufferHighWaterMark`` bytes plus one snapshot, plus what the kernel buffers for its socket.
    ///
    /// The agent's work runs on ``threads`` threads of its own; each viewer gets a snapshot at most every
    /// ``minimumSnapshotInterval`` seconds, and all viewers together at most ``snapshotShare`` of a core.
    public struct Limits: Sendable, Equatable {
        /// The most viewers served at once, over the socket and TCP together. One more is sent an error frame
        /// saying so (ponytop shows it) and closed. Default 16.
        public var maximumViewers: Int = 16
        /// The largest request frame, in bytes after its length field. Requests are a few bytes (a snapshot request
        /// names the mail types a viewer shows); a longer one ends its connection as soon as its length arrives.
        /// Default 65,536 (64 KiB).
        public var maximumRequestBytes: Int = 64 << 10
        /// Seconds a frame may take to arrive once it started: a peer that sends part of a frame and goes silent is
        /// disconnected. Default 5.
        public var frameTimeout: Double = 5
        /// Seconds replies may stay above ``writeBufferHighWaterMark``, unread: then the viewer is disconnected.
        /// Default 10.
        public var unreadReplyDeadline: Double = 10
        /// Bytes of unsent replies above which the agent stops reading the viewer's requests. Default 1 MiB.
        public var writeBufferHighWaterMark: Int = 1 << 20
        /// Bytes of unsent replies below which it reads them again. Default 256 KiB.
        public var writeBufferLowWaterMark: Int = 256 << 10
        /// Threads the agent serves its viewers on: its own, never the app's event loops or NIO's shared ones, so
        /// that a viewer's snapshots take no thread the app's traffic needs. Default 1.
        public var threads: Int = 1
        /// Seconds between two requests of one viewer, snapshots or any other: a viewer that asks faster waits (its
        /// requests stay in its socket), it is not served faster. Default 0.05 (ponytop's fastest refresh).
        public var minimumSnapshotInterval: Double = 0.05
        /// The share of one core that all viewers' snapshots together may take: after a snapshot that took `t`
        /// seconds of the agent's CPU, the next one, of any viewer, starts `t * (1 / share - 1)` seconds later at the
        /// earliest. Default 0.25.
        public var snapshotShare: Double = 0.25
        /// Seconds after the hello within which a viewer must send its first whole request, else it is told why and
        /// closed. Default 10.
        public var firstRequestTimeout: Double = 10
        /// Seconds without a request after which a viewer gives up its slot to a new one when all are taken (one that
        /// has sent no request yet gives it up first, at any time). Until then, and while a slot is free, a quiet
        /// viewer keeps its connection; the hello tells viewers this bound, and a paused ponytop sends a keep-alive
        /// request every third of it to keep its slot. Default 10.
        public var quietViewerBound: Double = 10

        /// The defaults above.
        public init() {}

        /// Checks that every bound is positive and the water marks are in order.
        ///
        /// - Throws: ``AgentError/invalidLimits(_:)`` naming the bad setting and what is valid.
        func validate() throws {
            let problems: [(Bool, String)] = [
                (maximumViewers >= 1, "maximumViewers is \(maximumViewers); expected 1 or more"),
                (
                    maximumRequestBytes >= 64,
                    "maximumRequestBytes is \(maximumRequestBytes); expected 64 or more"
                ),
                (
                    frameTimeout.isFinite && frameTimeout > 0,
                    "frameTimeout is \(frameTimeout); expected seconds greater than 0"
                ),
                (
                    unreadReplyDeadline.isFinite && unreadReplyDeadline > 0,
                    "unreadReplyDeadline is \(unreadReplyDeadline); expected seconds greater than 0"
                ),
                (threads >= 1 && threads <= 64, "threads is \(threads); expected 1...64"),
                (
                    firstRequestTimeout.isFinite && firstRequestTimeout > 0,
                    "firstRequestTimeout is \(firstRequestTimeout); expected seconds greater than 0"
                ),
                (
                    quietViewerBound.isFinite && quietViewerBound >= 0,
                    "quietViewerBound is \(quietViewerBound); expected seconds, 0 or more"
                ),
                (
                    minimumSnapshotInterval.isFinite && minimumSnapshotInterval >= 0,
                    "minimumSnapshotInterval is \(minimumSnapshotInterval); expected seconds, 0 or more"
                ),
                (
                    snapshotShare.isFinite && snapshotShare > 0 && snapshotShare <= 1,
                    "snapshotShare is \(snapshotShare); expected a share of one core, greater than 0, at most 1"
                ),
                (
                    writeBufferLowWaterMark >= 1 && writeBufferLowWaterMark <= writeBufferHighWaterMark,
                    "writeBufferLowWaterMark is \(writeBufferLowWaterMark) and writeBufferHighWaterMark "
                        + "\(writeBufferHighWaterMark); expected 1 <= low <= high"
                ),
            ]
            if let problem = problems.first(where: { !$0.0 }) { throw AgentError.invalidLimits(problem.1) }
        }
    }
}
