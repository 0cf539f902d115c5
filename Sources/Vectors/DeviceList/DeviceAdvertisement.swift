import Primitives

/// Pixie's device-set advertisement (seed 001, "the contact edge"; SPEC.md §10.5). This is not
/// Haven's signed DeviceList: it is the text an account's device sends its contacts over the
/// encrypted channel, `siblings() ∪ {self}` written as one comma-separated string, and pushed only
/// when that string changed.
public enum DeviceAdvertisement {
    /// The advertised set written out: each id as 64 lowercase hex digits, ascending by bytes,
    /// no duplicates, joined by "," with nothing else (no spaces, no trailing comma).
    public static func csv(selfDevice: DeviceID, siblings: [DeviceID]) -> String {
        DeviceListSeams.advertisedOrder(siblings + [selfDevice]).map(\.hex).joined(separator: ",")
    }

    /// What a refresh does: the CSV, and whether it is pushed (no cached CSV, or a cached one
    /// whose bytes differ).
    public static func advertise(selfDevice: DeviceID, siblings: [DeviceID], cached: String?) -> (csv: String, push: Bool) {
        let text = csv(selfDevice: selfDevice, siblings: siblings)
        return (text, DeviceListSeams.push(csv: text, cached: cached))
    }

    /// A contact reading an advertisement: the empty string is the empty set
    /// (`device_list_empty_advertisement`); otherwise every entry between commas, empty ones
    /// included, must be exactly 64 lowercase hex digits (`device_list_bad_advertisement`, the
    /// first bad entry reported). The result is the set: deduplicated, ascending.
    public static func decode(_ text: String) throws(WireError) -> [DeviceID] {
        guard !text.isEmpty else {
            throw WireError(.deviceListEmptyAdvertisement, "an advertisement names at least the advertising device", field: "csv")
        }
        var ids: [DeviceID] = []
        for (i, raw) in DeviceListSeams.entries(text).enumerated() {
            let entry = DeviceListSeams.entry(raw)
            guard entry.count == 64, entry.allSatisfy(DeviceListSeams.isEntryDigit),
                  let bytes = Hex.decode(String(decoding: entry, as: UTF8.self)), let id = DeviceID(bytes) else {
                throw WireError(.deviceListBadAdvertisement, "entry \(i) is not 64 lowercase hex digits", field: "csv")
            }
            ids.append(id)
        }
        return Array(Set(ids)).sorted()
    }
}
