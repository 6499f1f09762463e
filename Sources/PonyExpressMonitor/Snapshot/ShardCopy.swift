import Histogram
import PonyExpress

/// What a snapshot takes of one shard while it holds the shard's lock, to merge after letting go of it.
///
/// The posting thread of that shard waits for its lock, and an `unregister` on any thread takes every shard's lock:
/// whatever the snapshot does under it, the app's calls wait for. Merging under the lock took time that grew with the
/// recipients that received mail and the mail types posted (a histogram merge for each): at 100,000 recipients that
/// all received mail, an `unregister` waited up to 18 ms for one viewer's snapshot and 30 ms with sixteen
/// (`ponybench watch-cost`). The copy takes one pass over the recipient table, writing only the entries in use, and
/// keeps the histograms by reference: a post that records into one before the snapshot is done copies the array of
/// them (a retain each) and that histogram's counts, once, where merging them all under the lock held every post.
struct ShardCopy {
    let types: [TypeTraffic]
    let histograms: ContiguousArray<Histogram<UInt64>>
    let recipients: [RecipientTable.Entry]
    let otherTypes: [UInt64: [Int32: RecipientTraffic]]
    let queues: [String: QueueTraffic]
    let siteRuns: [RunProfile]
    let estimatedBytes: Int

    /// Takes the shard's figures, its recipients' into `entries`, which the caller made beforehand about as long as
    /// the shard's recipient table, so that the page faults of 4.8 MB for 100,000 recipients happen before the lock
    /// (how much that saves was not measured apart from the copy); the caller holds the shard's lock.
    init(of state: borrowing ShardState, entries: inout [RecipientTable.Entry]) {
        // A copy of its own: sharing the array would make the shard's next post copy all of it, on the app's thread.
        types = state.types.map { $0 }
        histograms = state.histograms
        let written = state.recipients.copyEntries(into: &entries)
        entries.removeLast(entries.count - written)
        recipients = entries
        entries = []
        otherTypes = state.otherTypes
        queues = state.queues
        siteRuns = state.siteRuns
        estimatedBytes = state.estimatedBytes
    }

    /// Adds the shard's figures to the snapshot's, outside the lock.
    func merge(
        into traffic: inout [TypeIdentity: MergedTraffic], recipientTotals: inout [RecipientTotalsEntry],
        queues merged: inout [String: MergedQueue], siteRuns: inout [RunProfile], first: Int64, span: Int
    ) {
        for entry in types {
            traffic[entry.mailType, default: MergedTraffic(span: span)].merge(
                entry, handler: histogram(entry.handlerHistogram), wait: histogram(entry.waitHistogram), from: first)
        }
        func collect(_ id: UInt64, _ entry: RecipientTraffic) {
            guard types.indices.contains(Int(entry.slot)) else { return }
            var totals = RecipientTotals()
            totals.merge(entry)
            recipientTotals.append(
                RecipientTotalsEntry(id: id, mailType: types[Int(entry.slot)].mailType, totals: totals))
        }
        for entry in recipients { collect(entry.id, entry.traffic) }
        for (id, bySlot) in otherTypes {
            for entry in bySlot.values { collect(id, entry) }
        }
        for (label, entry) in queues {
            merged[label, default: MergedQueue(span: span)].merge(entry, from: first)
        }
        for (index, profile) in self.siteRuns.enumerated() {
            if index >= siteRuns.count { siteRuns.append(RunProfile()) }
            siteRuns[index].merge(profile)
        }
    }

    private func histogram(_ index: Int) -> Histogram<UInt64>? {
        index < 0 ? nil : histograms[index]
    }
}
