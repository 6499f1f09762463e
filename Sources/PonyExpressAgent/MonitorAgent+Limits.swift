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
