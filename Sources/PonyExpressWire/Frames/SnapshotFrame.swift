import PonyExpressMonitor

/// A snapshot as it crosses the wire or lies in a recording, stamped with the wall-clock time it was taken.
package struct SnapshotFrame: Codable, Sendable {
    /// Seconds since 1970 when the agent took the snapshot.
    package var takenAt: Double
    /// The snapshot; its recipients are those of the mail types the request named.
    package var snapshot: MonitorSnapshot

    package init(takenAt: Double, snapshot: MonitorSnapshot) {
        self.takenAt = takenAt
        self.snapshot = snapshot
    }

    package var frame: Frame {
        get throws { Frame(kind: .snapshot, payload: try WireEncoder.encode(self)) }
    }

    /// Reads a snapshot frame.
    package static func read(_ frame: Frame) throws -> SnapshotFrame {
        guard frame.kind == .snapshot else { throw WireError.unexpectedFrame("expected a snapshot, got \(frame.kind)") }
        return try WireDecoder.decode(SnapshotFrame.self, from: frame.payload)
    }
}
