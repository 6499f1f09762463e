/// What can be wrong with bytes from a peer or a recording. Each description is one line naming the problem.
package enum WireError: Error, Equatable, CustomStringConvertible {
    /// A frame announced more bytes than ``Frame/maximumLength``.
    case frameTooLarge(Int)
    /// Bytes that do not follow the format.
    case malformed(String)
    /// A peer or recording of a major version this one does not read.
    case unsupportedVersion(major: Int, minor: Int)
    /// A frame of a kind the receiver does not expect here.
    case unexpectedFrame(String)
    /// The other side refused or ended the session, with its reason.
    case refused(String)
    /// A recording cut short or damaged: where, and what.
    case damagedRecording(String)

    package var description: String {
        switch self {
        case .frameTooLarge(let length):
            "a frame of \(length) bytes exceeds the \(Frame.maximumLength >> 20) MiB limit"
        case .malformed(let detail):
            "malformed data: \(detail)"
        case .unsupportedVersion(let major, let minor):
            "wire protocol \(major).\(minor) is not supported; this build reads \(WireVersion.major).x "
                + "(\(WireVersion.current))"
        case .unexpectedFrame(let detail):
            "unexpected frame: \(detail)"
        case .refused(let reason):
            reason
        case .damagedRecording(let detail):
            "damaged recording: \(detail)"
        }
    }
}
