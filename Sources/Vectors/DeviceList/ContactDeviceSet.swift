/// What a contact holds about one account's devices, and how it uses an advertised list
/// (SPEC.md §10.5, seed 001 "the contact edge"). A contact never asks a server which devices an
/// account owns (that would let any sender enumerate them); it learns the set only from the
/// account's own advertisement, and keeps a tombstone for each dropped device.
public struct ContactDeviceSet: Sendable, Equatable {
    public struct Record: Sendable, Equatable {
        public var device: DeviceID
        /// A tombstone: the record stays so the device is never silently re-learned as new.
        public var revoked: Bool
        public init(device: DeviceID, revoked: Bool) {
            self.device = device
            self.revoked = revoked
        }
    }

    /// The device the contact first exchanged keys with: the conversation's threading anchor.
    public var primary: DeviceID
    /// One record per device, kept in ascending id order.
    public private(set) var records: [Record]

    /// Rejects two records for one device (`duplicate_key`).
    public init(primary: DeviceID, records: [Record]) throws(WireError) {
        let sorted = records.sorted { $0.device < $1.device }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.device == b.device {
            throw WireError(.duplicateKey, "device \(a.device.hex) has two records", field: "known")
        }
        self.primary = primary
        self.records = sorted
    }

    /// Applies an advertisement: every advertised device is upserted live; every known device the
    /// advertisement drops is tombstoned, except the primary, which keeps its state. An empty
    /// advertisement is refused: an account always advertises at least the advertising device, and
    /// applying "nothing" would tombstone everything on no evidence.
    public mutating func apply(advertised: [DeviceID]) throws(WireError) {
        guard !advertised.isEmpty else {
            throw WireError(.deviceListEmptyAdvertisement, "an advertisement names at least the advertising device", field: "advertised")
        }
        let set = Set(advertised)
        for i in records.indices {
            if set.contains(records[i].device) { records[i].revoked = false }
            else if DeviceListSeams.tombstones(records[i].device, primary: primary) { records[i].revoked = true }
        }
        let known = Set(records.map(\.device))
        for d in set where !known.contains(d) { records.append(Record(device: d, revoked: false)) }
        records.sort { $0.device < $1.device }
    }

    /// The devices a send fans out to before any chain filter: every record not tombstoned.
    public var fanout: [DeviceID] { records.filter { !$0.revoked }.map(\.device) }

    /// The chain-authorized filter: with a bound chain (here: a verified device list), the fan-out
    /// set intersected with the chain's authorized roster, even when that is empty (no rescue to
    /// the primary: an empty result means "send to nobody", never "send to the anchor"). Without a
    /// bound chain the full set, primary included. Deduplicated, ascending.
    public static func chainAuthorizedFilter(_ fanout: [DeviceID], chain: DeviceList?) -> [DeviceID] {
        let set = Set(fanout)
        guard let chain else { return set.sorted() }
        return set.filter(chain.isAuthorized).sorted()
    }
}
