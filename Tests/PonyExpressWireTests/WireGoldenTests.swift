import PonyExpressWire
import Testing

/// The wire's bytes for two snapshots, captured before the snapshot's rows lost their second encoding (the generic
/// `Codable` one, which wrote the same bytes as the hand-written one): recordings and viewers of earlier versions read
/// these bytes, so the one encoding left must write them unchanged.
///
/// Each golden payload is read and written back; the bytes must come back the same, string and type tables included.
/// A snapshot encoded afresh would not do: registrations carry addresses and clock times, and a dictionary's order
/// changes from one process to the next, so the goldens were made with one mail type's recipients and one queue label
/// per mail type, whose order is fixed (see ``WireGolden``).
@Suite("the wire's bytes")
struct WireGoldenTests {
    @Test("read a snapshot's payload and write it back byte for byte", arguments: WireGolden.all)
    func sameBytes(_ golden: WireGolden) throws {
        let bytes = golden.bytes
        #expect(!bytes.isEmpty)
        let frame = try WireDecoder.decode(SnapshotFrame.self, from: bytes)
        #expect(frame.takenAt == 1_700_000_000.5)
        let written = try WireEncoder.encode(frame)
        #expect(written.count == bytes.count, "\(golden.name)")
        if let first = zip(written, bytes).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("\(golden.name): byte \(first.offset) is \(first.element.0), was \(first.element.1)")
        }
        #expect(written == bytes)
    }
}
