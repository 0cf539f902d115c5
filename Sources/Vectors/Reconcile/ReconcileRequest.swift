import Primitives

/// `reconcile_req`: a `kind` value of a `sync_delta` payload (not an envelope type), asking a
/// sibling for the rows of one namespace in the ranges where the sibling's leaves differ.
public struct ReconcileRequest: Sendable, Hashable {
    public static let kind = "reconcile_req"

    public var namespace: Namespace
    /// Empty for settings, whose request carries no fingerprints.
    public var buckets: [Bucket]

    public init(namespace: Namespace, buckets: [Bucket]) {
        self.namespace = namespace
        self.buckets = buckets
    }

    /// The frame as vector data (member order is the canonical JSON order).
    public var tree: CBOR {
        var members: [(String, CBOR)] = [("kind", .text(Self.kind)), ("namespace", .text(namespace.rawValue))]
        if namespace != .settings { members.append(("buckets", .array(buckets.map(\.tree)))) }
        return .object(members)
    }

    /// Checks the tiling rules of SPEC.md §5.3 on a decoded bucket list.
    static func validateTiling(_ buckets: [Bucket]) throws(WireError) {
        guard !buckets.isEmpty else {
            throw WireError(.frameNotTiling, "a request carries at least one bucket (an empty namespace sends one covering everything)", field: "buckets")
        }
        guard buckets.count <= Bucketizer.maxBuckets || Mutant.on(.acceptTooManyBuckets) else {
            throw WireError(.frameTooManyBuckets, "\(buckets.count) buckets; at most \(Bucketizer.maxBuckets)", field: "buckets")
        }
        guard buckets[0].lo.isEmpty || Mutant.on(.firstLoIsFirstKey) else {
            throw WireError(.frameNotTiling, "the first bucket's lo must be empty (unbounded below)", field: "buckets[0].lo")
        }
        for i in buckets.indices {
            let b = buckets[i]
            if i == buckets.count - 1 {
                guard b.hi == nil else { throw WireError(.frameNotTiling, "the last bucket's hi must be absent (unbounded above)", field: "buckets[\(i)].hi") }
            } else {
                guard let hi = b.hi else { throw WireError(.frameNotTiling, "only the last bucket may omit hi", field: "buckets[\(i)].hi") }
                guard hi == buckets[i + 1].lo else { throw WireError(.frameNotTiling, "hi must equal the next bucket's lo", field: "buckets[\(i)].hi") }
                guard b.lo.lexicographicallyPrecedes(hi) else { throw WireError(.frameNotTiling, "lo must be below hi (no empty or inverted range)", field: "buckets[\(i)]") }
            }
        }
    }
}
