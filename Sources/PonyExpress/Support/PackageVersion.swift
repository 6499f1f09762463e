/// The package's version: the one constant behind `ponytop --version`, the reports' `tool`, the agent's hello and
/// so the recordings.
package enum PackageVersion {
    /// The version, such as `0.2.0`.
    package static let current = "0.2.0"
}
