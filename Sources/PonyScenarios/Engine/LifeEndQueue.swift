/// The moments recipients' lives end, earliest first, ties broken by group and then slot, so that the order in
/// which lives end never depends on when the lifecycle thread wakes.
struct LifeEndQueue {
    /// One recipient's end of life.
    struct Entry: Comparable {
        let time: Double
        let group: Int
        let slot: Int

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.time, lhs.group, lhs.slot) < (rhs.time, rhs.group, rhs.slot)
        }
    }

    /// A binary min-heap.
    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }

    /// The earliest entry.
    var first: Entry? { heap.first }

    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry.
    mutating func removeFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left] < heap[smallest] { smallest = left }
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
