import Foundation
import PonyExpress
import PonyExpressMonitor
import Testing

@testable import PonyExpressWire

/// Each row type of a snapshot has two encodings: the wire's, written by hand for speed (`PonyExpressWire/HandWritten`,
/// its fields named by the type's `WireField`), and its public `Codable` one, synthesized or written by hand beside
/// the type, for an app's own formats. These hold the two to one schema, field by field: a field added to the type
/// and left out of either encoding, or named in one and not the other, fails here.
@Suite("one schema: each row's wire fields and Codable keys agree")
struct SchemaAgreementTests {
    /// The row types written by hand on the wire, with the names of their wire fields.
    static let wireFields: [(type: String, fields: Set<String>)] = [
        ("MailTypeStats", names(MailTypeStats.WireField.self)),
        ("RecipientCounts", names(RecipientCounts.WireField.self)),
        ("LatencySummary", names(LatencySummary.WireField.self)),
        ("LatencyBucket", names(LatencyBucket.WireField.self)),
        ("SiteStats", names(SiteStats.WireField.self)),
        ("ScopeCounts", names(ScopeCounts.WireField.self)),
        ("SourceLocation", names(SourceLocation.WireField.self)),
        ("LifetimeSummary", names(LifetimeSummary.WireField.self)),
        ("RecipientStats", names(RecipientStats.WireField.self)),
        ("PostedTypeDeliveries", names(PostedTypeDeliveries.WireField.self)),
        ("RelayFigures", names(RelayFigures.WireField.self)),
        ("RecipientInfo", names(RecipientInfo.WireField.self)),
    ]

    static func names<Field: RawRepresentable & CaseIterable>(_: Field.Type) -> Set<String>
    where Field.RawValue == String {
        Set(Field.allCases.map(\.rawValue))
    }

    /// The keys each row type's `Codable` encoding writes, over every value of the type in a snapshot whose every
    /// field holds a value somewhere (an optional left out when `nil` is written by another value).
    static func codableKeys() throws -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        let snapshot = SnapshotFixture.make()
        var values: [Any] = [snapshot]
        for stats in snapshot.mailTypes { values.append(snapshot.recipients(of: stats.mailType)) }
        var seen = 0
        while seen < values.count {
            let value = values[seen]
            seen += 1
            let name = String(describing: type(of: value))
            if wireFields.contains(where: { $0.type == name }) {
                let row = try #require(value as? any Encodable, "\(name) is not Codable")
                keys[name, default: []].formUnion(try codableKeys(row))
            }
            values += Mirror(reflecting: value).children.map(\.value)
        }
        return keys
    }

    /// The keys of a value's `Codable` encoding, as JSON writes them.
    static func codableKeys(_ value: any Encodable) throws -> Set<String> {
        let data = try JSONEncoder().encode(value)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return Set(object.keys)
    }

    @Test("the fixture holds every row type written by hand")
    func everyRowTypeIsSampled() throws {
        let keys = try Self.codableKeys()
        for (type, _) in Self.wireFields {
            #expect(keys[type] != nil, "SnapshotFixture holds no \(type)")
        }
    }

    @Test("a row's wire fields are its Codable keys", arguments: wireFields.map(\.type))
    func sameFields(_ type: String) throws {
        let wire = try #require(Self.wireFields.first { $0.type == type }?.fields)
        let codable = try #require(try Self.codableKeys()[type], "SnapshotFixture holds no \(type)")
        #expect(
            codable.subtracting(wire).isEmpty,
            "\(type): Codable writes \(codable.subtracting(wire).sorted()), which its WireField does not name")
        #expect(
            wire.subtracting(codable).isEmpty,
            "\(type): the wire names \(wire.subtracting(codable).sorted()), which its Codable encoding never writes")
    }

    @Test("the Codable encoding reads back every field of the snapshot, as the wire's does")
    func codableRoundTrip() throws {
        let snapshot = SnapshotFixture.make()
        let decoded = try JSONDecoder().decode(MonitorSnapshot.self, from: try JSONEncoder().encode(snapshot))
        let expected = SnapshotMirror.render(snapshot)
        let read = SnapshotMirror.render(decoded)
        for (left, right) in zip(expected, read) where left != right {
            Issue.record("Codable wrote \(left), read \(right)")
        }
        #expect(expected.count == read.count)
        #expect(SnapshotMirror.unpopulated(expected).isEmpty, "\(SnapshotMirror.unpopulated(expected))")
    }
}
