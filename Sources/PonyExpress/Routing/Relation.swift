/// The buckets that mail of one posted dynamic type goes to.
struct Relation {
    let postedType: any Any.Type
    var buckets: [Bucket]
}
