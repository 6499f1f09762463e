import PonyExpress

/// ponytop's version, printed by `--version` and recorded in every report: the package's ``PackageVersion``.
package enum ToolVersion {
    /// The version.
    package static var current: String { PackageVersion.current }
    /// `ponytop 0.2.0`.
    package static var named: String { "ponytop \(current)" }
}
