/// ponytop's version, printed by `--version` and recorded in every report.
package enum ToolVersion {
    /// The version.
    package static let current = "0.2.0"
    /// `ponytop 0.2.0`.
    package static var named: String { "ponytop \(current)" }
}
