/// The account-side ways a roster changes (SPEC.md §10.4): merging two replicas of one's own
/// list, self-registration and retiring the account leaf. Each returns the **unsigned** new list
/// or nil for "no change"; the caller signs it. Keeping membership pure lets the property tests run
/// thousands of merges without a single ML-DSA signature.
public enum DeviceListMerge {
    /// The next version, or `device_list_version_exhausted` when `v` is already 2^64 − 1 (Haven's
    /// Rust `+ 1` would wrap in release and panic in debug; neither may reach the wire).
    static func bump(_ v: UInt64) throws(WireError) -> UInt64 { try DeviceListSeams.bump(v) }

    /// Union merge of two verified replicas of one account's list.
    ///
    /// Both device sets and both revoked sets are unioned, except that an id revoked only in the
    /// older list, and present unrevoked in the strictly newer list's devices, is re-authorized:
    /// with a grow-only revoked set, `withSelfAdded`'s explicit re-authorization was undone by
    /// every older replica, so the device flip-flopped forever. On a version tie a revocation
    /// stays. Retirement is sticky. Nil when nothing changes relative to `local`.
    public static func merge(local: DeviceList, remote: DeviceList, updatedAt: UInt64) throws(WireError) -> DeviceList? {
        guard remote.accountID == local.accountID else { return nil }
        let (newer, older) = remote.version > local.version ? (remote, local) : (local, remote)
        if Mutant.on(.listHigherVersionReplaces) {
            guard newer.version > local.version else { return nil }
            return DeviceList(accountID: local.accountID, version: try bump(newer.version), updatedAt: updatedAt,
                              devices: newer.devices.sorted(), revoked: newer.revoked.sorted(), accountLeafRetired: newer.accountLeafRetired)
        }
        var revoked: [DeviceID] = []
        for r in local.revoked + remote.revoked where !revoked.contains(r) {
            let newerWins = newer.version > older.version || (Mutant.on(.listTieReauthorizes) && newer.version == older.version)
            let reauthorized = !Mutant.on(.listGrowOnlyRevoked) && newerWins
                && older.revoked.contains(r) && !newer.revoked.contains(r) && newer.devices.contains(r)
            if !reauthorized { revoked.append(r) }
        }
        var devices: [DeviceID] = []
        for d in local.devices + remote.devices where !revoked.contains(d) && !devices.contains(d) {
            devices.append(d)
        }
        devices.sort()
        revoked.sort()
        let retired = Mutant.on(.listRetiredNotSticky) ? newer.accountLeafRetired : local.accountLeafRetired || remote.accountLeafRetired
        // Compared with the local list's own sequences sorted but not deduplicated (Haven's rule):
        // a local list carrying a duplicate id therefore counts as changed.
        if devices == local.devices.sorted() && revoked == local.revoked.sorted() && retired == local.accountLeafRetired
            && !Mutant.on(.listMergeResignsUnchanged) {
            return nil
        }
        return DeviceList(accountID: local.accountID, version: try bump(max(local.version, remote.version)), updatedAt: updatedAt,
                          devices: devices, revoked: revoked, accountLeafRetired: retired)
    }

    /// Self-registration: nil when `id` is already present and unrevoked; otherwise `id` is
    /// appended (if absent) and its own tombstone cleared, order otherwise kept, retirement kept.
    public static func withSelfAdded(_ list: DeviceList, id: DeviceID, updatedAt: UInt64) throws(WireError) -> DeviceList? {
        if list.devices.contains(id) && !list.revoked.contains(id) { return nil }
        var devices = list.devices
        if !devices.contains(id) { devices.append(id) }
        return DeviceList(accountID: list.accountID, version: try bump(list.version), updatedAt: updatedAt,
                          devices: devices, revoked: Mutant.on(.listSelfAddKeepsTombstone) ? list.revoked : list.revoked.filter { $0 != id },
                          accountLeafRetired: list.accountLeafRetired)
    }

    /// Sets the retired flag: nil when already set; otherwise the same sets, version + 1.
    public static func withAccountLeafRetired(_ list: DeviceList, updatedAt: UInt64) throws(WireError) -> DeviceList? {
        if list.accountLeafRetired { return nil }
        return DeviceList(accountID: list.accountID, version: try bump(list.version), updatedAt: updatedAt,
                          devices: list.devices, revoked: list.revoked, accountLeafRetired: true)
    }
}
