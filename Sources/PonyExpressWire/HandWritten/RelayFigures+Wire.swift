import PonyExpressMonitor

extension RelayFigures {
    enum WireField: String, CaseIterable, Sendable {
        case sent, received, dropped, lagSamples, lagP50, lagP99
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.relayFigures)

    /// Writes the figures: a keyed container of its ``WireField``s, in their order.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.sent.rawValue)
            writer.unsigned(sent)
            writer.key(WireField.received.rawValue)
            writer.unsigned(received)
            writer.key(WireField.dropped.rawValue)
            writer.unsigned(dropped)
            writer.key(WireField.lagSamples.rawValue)
            writer.unsigned(lagSamples)
            writer.key(WireField.lagP50.rawValue)
            writer.unsigned(lagP50)
            writer.key(WireField.lagP99.rawValue)
            writer.unsigned(lagP99)
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var values: [WireField: UInt64] = [:]
        let what: StaticString = "a mail type's relay figures"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            if values[field] == nil { values[field] = try wire.unsigned(slot, what) }
        }
        self.init(
            sent: try WireFields.required(values[.sent], what, "sent"),
            received: try WireFields.required(values[.received], what, "received"),
            dropped: try WireFields.required(values[.dropped], what, "dropped"),
            lagSamples: try WireFields.required(values[.lagSamples], what, "lagSamples"),
            lagP50: try WireFields.required(values[.lagP50], what, "lagP50"),
            lagP99: try WireFields.required(values[.lagP99], what, "lagP99"))
    }
}
