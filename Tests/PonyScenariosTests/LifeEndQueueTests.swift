import Testing

@testable import PonyScenarios

@Suite struct LifeEndQueueTests {
    @Test func removesInOrderOfTimeThenGroupThenSlot() {
        var random = SplitMix64(seed: 3)
        var queue = LifeEndQueue()
        var entries: [LifeEndQueue.Entry] = []
        for _ in 0..<500 {
            let entry = LifeEndQueue.Entry(
                time: Double(random.next() % 50), group: Int(random.next() % 4), slot: Int(random.next() % 8))
            entries.append(entry)
            queue.insert(entry)
        }
        var removed: [LifeEndQueue.Entry] = []
        while let entry = queue.removeFirst() { removed.append(entry) }
        #expect(removed == entries.sorted())
        #expect(queue.isEmpty)
    }
}
