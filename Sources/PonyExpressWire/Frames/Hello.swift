import PonyExpressMonitor

/// The agent's first frame: who it is and which protocol it speaks.
///
/// Its payload starts with the major and minor version as two big-endian 16-bit numbers, so that any reader can
/// tell a version it does not read before decoding the rest.
package struct Hello: Codable, Equatable, Sendable {
    /// The process id of the app.
    package var pid: Int32
    /// The app's process name.
    package var processName: String
    /// The agent library's version.
    package var libraryVersion: String
    /// When the agent started, in seconds since 1970.
    package var startedAt: Double
    /// Seconds after which the agent may give the slot of a viewer that asked nothing to a newcomer, when all are
    /// taken: a viewer that wants to keep its slot while it does not ask (a paused ponytop) sends ``Request/keepAlive``
    /// more often than this. Since 1.3; `nil` from older agents.
    package var quietViewerBound: Double?
    /// The app's rules: those its monitor's settings turn off and the parameters they set, over the defaults. A viewer
    /// that judges the app's facts itself (``Request/factsToJudge(_:)``) starts from them. Since 1.9; `nil` from older
    /// agents.
    package var appRules: RuleOverrides?

    package init(
        pid: Int32, processName: String, libraryVersion: String = WireVersion.library, startedAt: Double,
        quietViewerBound: Double? = nil, appRules: RuleOverrides? = nil
    ) {
        self.appRules = appRules
        self.pid = pid
        self.processName = processName
        self.libraryVersion = libraryVersion
        self.startedAt = startedAt
        self.quietViewerBound = quietViewerBound
    }

    /// The frame: versions, then the encoded hello.
    package func frame(major: Int = WireVersion.major, minor: Int = WireVersion.minor) throws -> Frame {
        var payload = [UInt8(major >> 8 & 0xff), UInt8(major & 0xff), UInt8(minor >> 8 & 0xff), UInt8(minor & 0xff)]
        payload += try WireEncoder.encode(self)
        return Frame(kind: .hello, payload: payload)
    }

    /// Reads a hello, refusing another major version.
    ///
    /// - Returns: The hello and the peer's minor version.
    package static func read(_ frame: Frame) throws -> (hello: Hello, minor: Int) {
        guard frame.kind == .hello else { throw WireError.unexpectedFrame("expected a hello, got \(frame.kind)") }
        let payload = frame.payload
        guard payload.count >= 4 else { throw WireError.malformed("a hello without a version") }
        let major = Int(payload[0]) << 8 | Int(payload[1])
        let minor = Int(payload[2]) << 8 | Int(payload[3])
        guard major == WireVersion.major else { throw WireError.unsupportedVersion(major: major, minor: minor) }
        return (try WireDecoder.decode(Hello.self, from: Array(payload[4...])), minor)
    }
}
