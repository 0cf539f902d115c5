/// Haven's self-sync CRDT (SPEC.md §11.2–§11.4): last-write-wins registers under text keys, and
/// grow-only read cursors. `merge` is commutative, associative and idempotent, so a user's devices
/// converge whatever order (and however often) they see each other's states.
///
/// Keys are held by their UTF-8 bytes (`StateKey`); the lists are kept sorted by those bytes, so
/// the encoding and every output are in wire order.
public struct AccountState: Hashable, Sendable {
    public struct Record: Hashable, Sendable {
        public let key: StateKey
        public var register: Register
    }

    public struct Cursor: Hashable, Sendable {
        public let name: StateKey
        /// Never 0: a cursor at 0 is the same as no cursor, and no operation creates one.
        public var ts: UInt64
    }

    public private(set) var records: [Record] = []
    public private(set) var cursors: [Cursor] = []

    public init() {}

    /// A state from records and cursors in any order. Two records (or two cursors) under the same
    /// key, or a cursor at 0, are refused: a state holds one register per key and no zero cursor.
    public init(records: [Record], cursors: [Cursor]) throws(WireError) {
        for (i, r) in records.enumerated() {
            guard self.recordIndex(r.key) == nil else {
                throw WireError(.duplicateKey, "two records under the key \(r.key.text.debugDescription)", field: "records[\(i)].key")
            }
            self.insert(r)
        }
        for (i, c) in cursors.enumerated() {
            guard c.ts != 0 else { throw WireError(.inputBadValue, "a cursor at 0 is no cursor", field: "cursors[\(i)].ts") }
            guard self.cursorIndex(c.name) == nil else {
                throw WireError(.duplicateKey, "two cursors named \(c.name.text.debugDescription)", field: "cursors[\(i)].name")
            }
            self.insert(c)
        }
    }

    // MARK: lookup

    func recordIndex(_ key: StateKey) -> Int? { records.firstIndex { StateKey.same($0.key, key) } }
    func cursorIndex(_ name: StateKey) -> Int? { cursors.firstIndex { StateKey.same($0.name, name) } }

    public func register(_ key: StateKey) -> Register? { recordIndex(key).map { records[$0].register } }
    /// The read position for `name`; 0 when there is none.
    public func cursor(_ name: StateKey) -> UInt64 { cursorIndex(name).map { cursors[$0].ts } ?? 0 }

    private mutating func insert(_ r: Record) {
        let at = records.firstIndex { StateKey.precedes(r.key, $0.key) } ?? records.endIndex
        records.insert(r, at: at)
    }

    private mutating func insert(_ c: Cursor) {
        let at = cursors.firstIndex { StateKey.precedes(c.name, $0.name) } ?? cursors.endIndex
        cursors.insert(c, at: at)
    }

    // MARK: local writes (§11.3)

    /// Sets `key` to `value` if `stamp` is strictly after the stamp held for `key` (or nothing is
    /// held). Returns whether the write applied.
    @discardableResult
    public mutating func set(_ key: StateKey, _ value: [UInt8], stamp: Stamp) -> Bool {
        apply(key, Register(stamp: stamp, value: value))
    }

    /// Tombstones `key` under the same rule as `set`.
    @discardableResult
    public mutating func remove(_ key: StateKey, stamp: Stamp) -> Bool {
        apply(key, Register(stamp: stamp, value: nil))
    }

    private mutating func apply(_ key: StateKey, _ reg: Register) -> Bool {
        if let i = recordIndex(key) {
            guard reg.stamp.isAfter(records[i].register.stamp) else { return false }
            records[i].register = reg
        } else {
            insert(Record(key: key, register: reg))
        }
        return true
    }

    /// Advances the cursor `name` to `ts` if `ts` is greater than the cursor (0 when absent).
    @discardableResult
    public mutating func bumpCursor(_ name: StateKey, to ts: UInt64) -> Bool {
        if let i = cursorIndex(name) {
            guard ts > cursors[i].ts else { return false }
            cursors[i].ts = ts
        } else {
            guard ts > 0 else { return false }
            insert(Cursor(name: name, ts: ts))
        }
        return true
    }

    // MARK: merge (§11.4)

    /// Folds `other` into `self`: per key the greater register (`Register.beats`), per cursor the
    /// larger value.
    public mutating func merge(_ other: AccountState) {
        for theirs in other.records {
            if Mutant.on(.accountMergeDropsTombstones) && theirs.register.isTombstone { continue }
            if let i = recordIndex(theirs.key) {
                if theirs.register.beats(records[i].register) { records[i].register = theirs.register }
            } else {
                insert(theirs)
            }
        }
        for theirs in other.cursors {
            if let i = cursorIndex(theirs.name) {
                if theirs.ts > cursors[i].ts || Mutant.on(.accountCursorLastWrite) { cursors[i].ts = theirs.ts }
            } else {
                insert(theirs)
            }
        }
    }

    /// Appends in wire order: the decoder has already checked the order.
    mutating func appendDecoded(_ r: Record) { records.append(r) }
    mutating func appendDecoded(_ c: Cursor) { cursors.append(c) }

    public func merged(_ other: AccountState) -> AccountState {
        var m = self
        m.merge(other)
        return m
    }
}
