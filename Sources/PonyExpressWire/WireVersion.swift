/// The wire protocol's version. A new minor version adds only fields a reader may skip or find absent (optional
/// ones); anything else takes a new major version. A reader accepts every minor version of its own major version.
package enum WireVersion {
    /// Readers refuse other major versions.
    package static let major = 1
    /// Readers accept any minor version of their major version.
    /// 1.1: registration options, the over-limit mark and per-recipient replays, each absent when unset.
    /// 1.2: a mail type's bridged posts, absent from older peers (read as none).
    package static let minor = 2
    /// `major.minor`.
    package static var current: String { "\(major).\(minor)" }
    /// The agent library's own version, sent in the hello.
    package static let library = "0.1.0"
}
