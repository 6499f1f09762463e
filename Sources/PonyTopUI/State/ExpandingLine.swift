/// A row of an expanding table (``ExpandingTablePane``): a record, or one part of an expanded record.
enum ExpandingLine<Record: ExpandingRecord>: Equatable, Sendable, Keyed {
    /// A record, which shows whether it is expanded.
    case record(Record, isExpanded: Bool)
    /// The `index`-th part of an expanded record.
    case part(Record.Part, of: Record, index: Int)

    /// The row's key: the record's, or the part's as the record names it.
    var key: String {
        switch self {
        case .record(let record, _): record.key
        case .part(_, let record, let index): record.key(ofPart: index)
        }
    }

    /// The record the row shows or belongs to.
    var owner: Record {
        switch self {
        case .record(let record, _), .part(_, let record, _): record
        }
    }
}
