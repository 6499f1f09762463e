/// Route slots by posted dynamic type, and buckets by registered type: an open-addressing table keyed by the type's
/// metadata address.
///
/// `post` looks a route up on every call, and `register` and `unregister` a bucket, under the post office's lock. A
/// `Dictionary` keyed by `ObjectIdentifier` spends most of that time in SipHash; metadata addresses are unique and
/// well spread once multiplied, so a Fibonacci hash and linear probing do the same job in a few instructions. Keys
/// are never removed (the posted and registered types of a program are finite); a route is dropped by emptying its
/// slot.
struct RouteTable<Value> {
    private var keys: [ObjectIdentifier?]
    private var values: [Value?]
    private var count = 0
    private var shift: Int

    init() {
        keys = Array(repeating: nil, count: 16)
        values = Array(repeating: nil, count: 16)
        shift = 64 - 4
    }

    @inline(__always)
    private func slot(for key: ObjectIdentifier) -> Int {
        let address = UInt64(UInt(bitPattern: unsafeBitCast(key, to: Int.self)))
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The value for `key`, if there is one.
    @inline(__always)
    subscript(key: ObjectIdentifier) -> Value? {
        index(of: key).flatMap { values[$0] }
    }

    /// The index of `key`'s value, if there is one.
    @inline(__always)
    private func index(of key: ObjectIdentifier) -> Int? {
        var index = slot(for: key)
        let mask = keys.count - 1
        while let candidate = keys[index] {
            if candidate == key { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Every value, in no particular order.
    var all: some Sequence<Value> { values.lazy.compactMap { $0 } }

    /// Stores or clears the value for `key`.
    mutating func set(_ route: Value?, for key: ObjectIdentifier) {
        var index = slot(for: key)
        let mask = keys.count - 1
        while let candidate = keys[index] {
            if candidate == key {
                values[index] = route
                return
            }
            index = (index + 1) & mask
        }
        guard route != nil else { return }
        keys[index] = key
        values[index] = route
        count += 1
        if count * 2 > keys.count { grow() }
    }

    private mutating func grow() {
        let old = zip(keys, values)
        keys = Array(repeating: nil, count: keys.count * 2)
        values = Array(repeating: nil, count: values.count * 2)
        shift -= 1
        count = 0
        for case (let key?, let value) in old {
            var index = slot(for: key)
            let mask = keys.count - 1
            while keys[index] != nil { index = (index + 1) & mask }
            keys[index] = key
            values[index] = value
            count += 1
        }
    }
}

extension RouteTable where Value: AnyObject {
    /// The object for `key`, if there is one, not retained: for the caller to use while the table keeps it, under the
    /// post office's lock, without a reference count's read-modify-write each way.
    @inline(__always)
    func unowned(_ key: ObjectIdentifier) -> Unmanaged<Value>? {
        guard let index = index(of: key) else { return nil }
        return values.withUnsafeBufferPointer { values in
            UnsafeRawBufferPointer(values).load(
                fromByteOffset: index * MemoryLayout<Value?>.stride, as: Unmanaged<Value>?.self)
        }
    }
}
