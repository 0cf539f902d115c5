import Primitives

/// Pixie's advertisement cases (seed 001, SPEC.md §10.5): what a device writes and when it
/// pushes, and how a contact reads the text. Each case names the bug it catches.
extension DeviceListVectors {
    static func advertisementCases(_ b: inout Builder, _ ids: Identities) throws {
        let me = ids.d2.nodeID, s1 = ids.d1.nodeID, s3 = ids.d3.nodeID, a = ids.a.nodeID
        let sorted = [me, s1, s3, a].sorted()
        func csv(_ set: [DeviceID]) -> String { Array(Set(set)).sorted().map(\.hex).joined(separator: ",") }
        let full = csv([me, s1, s3, a])

        func advertise(_ id: String, _ comment: String, siblings: [DeviceID], cached: String?, selfDevice: DeviceID? = nil,
                       expectCSV: String, push: Bool) throws {
            let got = DeviceAdvertisement.advertise(selfDevice: selfDevice ?? me, siblings: siblings, cached: cached)
            try check(got.csv == expectCSV && got.push == push, "advertise \(id)")
            b.add(id, "advertise", comment,
                  input: .object([("self_device", .bytes((selfDevice ?? me).bytes)), ("siblings", idsTree(siblings)), ("cached", cached.map(CBOR.text) ?? .null)]),
                  expected: .output(.object([("csv", .text(got.csv)), ("push", .bool(got.push))])))
        }
        try advertise("csv/self-only", "no siblings: the set is {self}, one entry, no comma (a writer that forgets self sends the empty string)",
                      siblings: [], cached: nil, expectCSV: me.hex, push: true)
        try advertise("csv/ascending", "siblings given out of order: the CSV is ascending by bytes (a writer using a set's iteration order changes the string every launch)",
                      siblings: [s3, a, s1], cached: nil, expectCSV: full, push: true)
        try check(full == sorted.map(\.hex).joined(separator: ","), "ascending CSV")
        try advertise("csv/self-among-siblings", "self also listed among the siblings: written once (a writer that concatenates writes it twice)",
                      siblings: [s1, me], cached: nil, expectCSV: csv([s1, me]), push: true)
        try advertise("csv/duplicate-siblings", "a sibling listed twice: written once", siblings: [s1, s1, s3], cached: nil,
                      expectCSV: csv([me, s1, s3]), push: true)
        try advertise("push/first-refresh", "no cached CSV (null): the first refresh pushes", siblings: [s1], cached: nil,
                      expectCSV: csv([me, s1]), push: true)
        try advertise("push/unchanged", "the cached CSV equals the new one byte for byte: no push (a writer that pushes on every refresh floods contacts)",
                      siblings: [s3, s1, a], cached: full, expectCSV: full, push: false)
        try advertise("push/device-removed", "a sibling left since the cached CSV: pushed", siblings: [s1, a], cached: full,
                      expectCSV: csv([me, s1, a]), push: true)
        try advertise("push/cached-other-order", "the cached CSV holds the same set in another order (an older build's): the strings differ, so push once",
                      siblings: [s1, s3, a], cached: sorted.reversed().map(\.hex).joined(separator: ","), expectCSV: full, push: true)
        try advertise("push/cached-uppercase", "the cached CSV is the same set in uppercase hex: the bytes differ, so push (a case-insensitive compare does not)",
                      siblings: [s1, s3, a], cached: full.uppercased(), expectCSV: full, push: true)
        try advertise("push/cached-trailing-comma", "the cached CSV is the new one plus a trailing comma: different text, push",
                      siblings: [s1, s3, a], cached: full + ",", expectCSV: full, push: true)
        try advertise("push/cached-empty", "an empty cached string is a cached CSV, not a missing one: it differs, push",
                      siblings: [], cached: "", expectCSV: me.hex, push: true)
        let upperSelf = CBOR.object([("self_device", .text(me.hex.uppercased())), ("siblings", idsTree([s1])), ("cached", .null)])
        let upperOut = DeviceAdvertisement.advertise(selfDevice: me, siblings: [s1], cached: nil)
        b.add("input/self-uppercase-hex", "advertise", "self_device given in uppercase hex (§2.2: either case): the CSV is still lowercase",
              input: upperSelf, expected: .output(.object([("csv", .text(upperOut.csv)), ("push", .bool(true))])))
        b.add("input/cached-missing", "advertise", "cached absent: it is nullable, not optional (null means none, absence is input_missing_field)",
              flags: ["negative"], input: .object([("self_device", .bytes(me.bytes)), ("siblings", idsTree([s1]))]), expected: .error(.inputMissingField))
        b.add("input/cached-number", "advertise", "cached given as a number: input_bad_type",
              flags: ["negative"], input: .object([("self_device", .bytes(me.bytes)), ("siblings", idsTree([s1])), ("cached", .unsigned(0))]), expected: .error(.inputBadType))

        // Reading.
        func decode(_ id: String, _ comment: String, _ text: String, _ expected: [DeviceID], flags: [String] = []) throws {
            let got = try DeviceAdvertisement.decode(text)
            try check(got == expected.sorted(), "advertisement_decode \(id)")
            b.add(id, "advertisement_decode", comment, flags: flags, input: .object([("csv", .text(text))]),
                  expected: .output(.object([("advertised", idsTree(got))])))
        }
        func refuse(_ id: String, _ comment: String, _ text: String, _ code: ErrorCode, flags: [String] = []) throws {
            try b.reject(id, "advertisement_decode", comment, flags: flags, input: .object([("csv", .text(text))]), code) { () throws(WireError) in
                _ = try DeviceAdvertisement.decode(text)
            }
        }
        try decode("read/one", "a single id: the set of one", me.hex, [me])
        try decode("read/ascending", "the canonical form: every id back", full, [me, s1, s3, a])
        try decode("read/any-order", "entries out of order: accepted, the set comes back ascending (a reader that keeps wire order answers another order)",
                   [s3, me, a, s1].map(\.hex).joined(separator: ","), [me, s1, s3, a])
        try decode("read/duplicates", "an id twice: counts once", [s1, me, s1].map(\.hex).joined(separator: ","), [me, s1])
        try refuse("read/empty", "the empty string is the empty set: refused as empty, not as a bad entry", "", .deviceListEmptyAdvertisement)
        try refuse("read/trailing-comma", "a trailing comma leaves an empty last entry (a split that drops empty entries accepts it)", full + ",", .deviceListBadAdvertisement)
        try refuse("read/leading-comma", "a leading comma: an empty first entry", "," + me.hex, .deviceListBadAdvertisement)
        try refuse("read/double-comma", "two commas in a row: an empty entry between them", me.hex + ",," + s1.hex, .deviceListBadAdvertisement)
        try refuse("read/only-comma-not-empty", "one comma and nothing else: two empty entries; the text is not empty, so not the empty set (a reader that drops empty entries first answers empty)",
                   ",", .deviceListBadAdvertisement, flags: ["order"])
        try refuse("read/space-after-comma", "\", \" between entries: nothing is trimmed (a reader that trims accepts it)", me.hex + ", " + s1.hex, .deviceListBadAdvertisement)
        try refuse("read/trailing-newline", "a newline after the last entry: not trimmed", me.hex + "\n", .deviceListBadAdvertisement)
        try refuse("read/uppercase", "an entry in uppercase hex: entries are lowercase (a reader that folds case accepts it)", me.hex.uppercased(), .deviceListBadAdvertisement)
        var mixed = Array(me.hex)
        if let i = mixed.firstIndex(where: { $0.isLetter }) { mixed[i] = Character(mixed[i].uppercased()) }
        try refuse("read/mixed-case", "one uppercase digit inside an otherwise lowercase entry", String(mixed), .deviceListBadAdvertisement)
        try refuse("read/63-digits", "an entry one digit short", String(me.hex.dropLast()), .deviceListBadAdvertisement)
        try refuse("read/65-digits", "an entry one digit long", me.hex + "0", .deviceListBadAdvertisement)
        try refuse("read/semicolon", "ids separated by ';': one 129-character entry, not two ids", me.hex + ";" + s1.hex, .deviceListBadAdvertisement)
        try refuse("read/fullwidth-digits", "an entry of 64 fullwidth digits (U+FF10…): a reader that asks 'is this a digit' in Unicode accepts it",
                   String(repeating: "\u{FF10}", count: 64), .deviceListBadAdvertisement)
        try refuse("read/0x-prefix", "an entry written 0x…: 66 characters", "0x" + me.hex, .deviceListBadAdvertisement)
        b.add("input/csv-array", "advertisement_decode", "the advertisement given as a JSON array of ids instead of one string: input_bad_type",
              flags: ["negative"], input: .object([("csv", idsTree([me]))]), expected: .error(.inputBadType))
    }
}
