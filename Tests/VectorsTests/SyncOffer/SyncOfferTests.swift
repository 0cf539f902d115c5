import Primitives
import Testing
@testable import Vectors

/// sync_offer beyond the vectors: seal/open and import properties over seeded inputs, the
/// schedule against a direct reading of the rule, decoders on hostile bytes, and the named golden
/// cases that kill the sync_offer mutants.
struct SyncOfferTests {
    /// A seeded snapshot: a random subset of sample rows from a few namespaces.
    static func snapshot(_ g: inout SeededGenerator, universe: Int = 12) throws -> SyncSnapshot {
        var rows: [Namespace: [Row]] = [:]
        for ns in [Namespace.messages, .plans, .contacts, .notebook, .settings, .memory] {
            for i in 0..<universe where g.next() % 3 == 0 { rows[ns, default: []].append(SampleRows.typical(ns, index: i)) }
        }
        return try SyncSnapshot(rows: rows)
    }

    @Test func sealOpenRoundTripSeeded() throws {
        let seed: UInt64 = 0x5ea1_0001
        print("sealOpenRoundTripSeeded seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<60 {
            let key = g.bytes(32), nonce = g.bytes(12), blobID = g.bytes(32)
            // Raw plaintexts of every small length and a few large ones.
            let raw = g.bytes(trial < 40 ? trial : Int(g.next() % 5000))
            let blob = try SyncBlob.seal(raw, key: key, nonce: nonce)
            #expect(blob.count == raw.count + AES256GCM.tagByteCount)
            #expect(SyncBlob.open(blob, key: key, nonce: nonce) == raw)
            // Snapshots end to end through the receiver.
            let snap = try Self.snapshot(&g)
            #expect(try SyncSnapshot.decode(snap.encoded) == snap)
            let sealed = try SyncBlob.seal(snap.encoded, key: key, nonce: nonce)
            let offer = SyncBlob.offer(for: sealed, blobID: blobID, key: key, nonce: nonce)
            #expect(try SyncOffer.decode(offer.encoded) == offer)
            let own = g.bytes(32), rid = g.bytes(16)
            let o = try SyncReceiver.receive(offer: offer.encoded, requestID: rid, blob: sealed, ownUserIDHash: own, senderUserIDHash: own)
            #expect(o.result == .accepted && o.snapshot == snap && o.ack == SyncAck(requestID: rid, ok: true))
            // Any single flipped bit is refused, by the hash (the offer is unchanged).
            var flipped = sealed
            let bit = Int(g.next() % UInt64(sealed.count * 8))
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            let f = try SyncReceiver.receive(offer: offer.encoded, requestID: rid, blob: flipped, ownUserIDHash: own, senderUserIDHash: own)
            #expect(f.result == .refused && f.reason == .syncHashMismatch && f.ack?.ok == false)
        }
    }

    @Test func importTwiceEqualsImportOnceSeeded() throws {
        let seed: UInt64 = 0x1_a907
        print("importTwiceEqualsImportOnceSeeded seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for _ in 0..<40 {
            let store = try Self.snapshot(&g, universe: 20)
            let incoming = try Self.snapshot(&g, universe: 20)
            var once = store
            let n1 = once.importing(incoming)
            var twice = once
            let n2 = twice.importing(incoming)
            #expect(twice == once)
            #expect(n2 == 0)
            // Insert-if-absent: every row the store held is still there, unchanged.
            for (ns, rows) in store.namespaces { for r in rows { #expect(once.namespaces[ns]?.contains(r) == true) } }
            // Count: rows of incoming whose key the store lacked (calendar events never).
            var expected = 0
            for (ns, rows) in incoming.namespaces {
                let held = Set((store.namespaces[ns] ?? []).map(\.keyBytes))
                let fresh = rows.filter { !held.contains($0.keyBytes) && !SyncSnapshot.isCalendarEvent($0.row) }
                expected += fresh.count
                // An inserted row is the incoming row minus every excluded field outside the kept five.
                for r in fresh {
                    let got = try #require(once.namespaces[ns]?.first { $0.keyBytes == r.keyBytes })
                    for (i, f) in r.row.schema.fields.enumerated() {
                        let kept = f.isCommitted || (SyncSnapshot.keptExcluded[ns] ?? []).contains(f.name)
                        #expect(got.row.values[i] == (kept ? r.row.values[i] : nil), "\(ns.rawValue).\(f.name)")
                    }
                    #expect(got.extras == r.extras)
                }
            }
            #expect(n1 == expected)
            // The stored result still encodes canonically.
            #expect(try SyncSnapshot.decode(once.encoded) == once)
        }
    }

    /// Direct reading of SPEC.md §7.8: send k (k = 0…6) at 5000·k ms, every one of wake class sync
    /// (the payload type decides); nothing after the seventh; exhausted from 35000 ms.
    @Test func scheduleMatchesTheRule() {
        for t in stride(from: Int64(0), through: 40_000, by: 250) {
            let due = ResendSchedule.due(elapsedMs: t)
            var expected: [ResendSchedule.Send] = []
            for k in 0..<7 where Int64(k) * 5_000 <= t {
                expected.append(.init(index: k, atMs: Int64(k) * 5_000, wake: .sync))
            }
            #expect(due == expected, "t = \(t)")
            let next = (0..<7).map { Int64($0) * 5_000 }.first { $0 > t }
            #expect(ResendSchedule.nextAtMs(elapsedMs: t) == next, "t = \(t)")
            #expect(ResendSchedule.exhausted(elapsedMs: t) == (t >= 35_000), "t = \(t)")
        }
    }

    /// Direct reading of SPEC.md §7.8's relay rule over every event sequence up to length 6: a sync
    /// frame pushes exactly when no push happened since the last reconnect.
    @Test func relayWakeMatchesTheRule() {
        let all = RelayWake.Event.allCases
        var level: [[RelayWake.Event]] = [[]]
        var sequences = level
        for _ in 0..<6 {
            level = level.flatMap { s in all.map { s + [$0] } }
            sequences += level
        }
        #expect(sequences.count == 1 + 3 + 9 + 27 + 81 + 243 + 729)
        for events in sequences {
            var expected: [Int] = []
            for (i, e) in events.enumerated() where e == .sync {
                let lastReconnect = events[..<i].lastIndex(of: .reconnect) ?? -1
                if !expected.contains(where: { $0 > lastReconnect }) { expected.append(i) }
            }
            #expect(RelayWake.pushes(events) == expected, "\(events)")
        }
        #expect(ResendSchedule.wakeClass(payloadType: "sync_request") == .sync)
        for t in ["sync_offer", "sync_ack", "sync_delta", "SYNC_REQUEST", "sync_request\u{0}", ""] { #expect(ResendSchedule.wakeClass(payloadType: t) == .silent) }
    }

    static func validEncodings() throws -> [(String, [UInt8])] {
        var g = SeededGenerator(seed: 42)
        let req = SyncRequest(requestID: g.bytes(16), replyPubkey: g.bytes(1216), timestampMs: 1_767_225_600_000)
        let offer = SyncOffer(blobID: g.bytes(32), key: g.bytes(32), nonce: g.bytes(12), sha256: g.bytes(32), sizeBytes: 70_000)
        let ack = SyncAck(requestID: g.bytes(16), ok: false)
        return [("request", req.encoded), ("offer", offer.encoded), ("ack", ack.encoded), ("snapshot", try snapshot(&g).encoded)]
    }

    /// Runs every decoder; typed throws mean the only way out besides a value is a WireError.
    static func decodeAll(_ bytes: [UInt8]) -> [ErrorCode?] {
        let one = [UInt8](repeating: 1, count: 32)
        var out: [ErrorCode?] = []
        do { _ = try SyncRequest.decode(bytes); out.append(nil) } catch { out.append(error.code) }
        do { _ = try SyncOffer.decode(bytes); out.append(nil) } catch { out.append(error.code) }
        do { _ = try SyncAck.decode(bytes); out.append(nil) } catch { out.append(error.code) }
        do { _ = try SyncSnapshot.decode(bytes); out.append(nil) } catch { out.append(error.code) }
        do { _ = try SiblingRequestHandler.handle(request: bytes, ownUserIDHash: one, senderUserIDHash: one); out.append(nil) } catch { out.append(error.code) }
        do {
            _ = try SyncReceiver.receive(offer: bytes, requestID: [UInt8](repeating: 0, count: 16), blob: bytes, ownUserIDHash: one, senderUserIDHash: one)
            out.append(nil)
        } catch { out.append(error.code) }
        return out
    }

    @Test func everyTruncationIsCBORTruncated() throws {
        for (name, bytes) in try Self.validEncodings() {
            for n in 0..<bytes.count {
                let codes = Self.decodeAll(Array(bytes.prefix(n)))
                #expect(codes.prefix(4).allSatisfy { $0 == .cborTruncated }, "\(name) prefix \(n)")
            }
        }
    }

    @Test func seededRandomBytesNeverTrap() throws {
        let seed: UInt64 = 0xdec0de
        print("seededRandomBytesNeverTrap seed \(seed)")
        var g = SeededGenerator(seed: seed)
        var rejected = 0
        for _ in 0..<3000 {
            let codes = Self.decodeAll(g.bytes(Int(g.next() % 80)))
            rejected += codes.prefix(4).filter { $0 != nil }.count
        }
        // Mutated valid encodings reach deeper than random bytes do.
        for (_, bytes) in try Self.validEncodings() {
            for _ in 0..<300 {
                var m = bytes
                for _ in 0..<(1 + Int(g.next() % 3)) { m[Int(g.next() % UInt64(m.count))] = UInt8(truncatingIfNeeded: g.next()) }
                _ = Self.decodeAll(m)
            }
        }
        #expect(rejected > 0)
    }

    // MARK: mutants

    /// Every sync_offer mutant has the named golden case written against its bug, and that case
    /// kills it (MutantKillTests only demands *some* killer).
    static let killers: [(Mutant, String)] = [
        (.syncDecryptBeforeHash, "sync_offer/receive/refused/bit-flipped-hash-stale"),
        (.syncDecryptBeforeHash, "sync_offer/receive/refused/tag-bit-flipped-hash-stale"),
        (.syncSkipOfferGate, "sync_offer/receive/dropped/other-account"),
        (.syncSkipOfferGate, "sync_offer/receive/dropped/own-hash-absent"),
        (.syncSkipRequestGate, "sync_offer/handle_request/dropped/other-account"),
        (.syncGateAnyLength, "sync_offer/receive/dropped/both-hashes-33-bytes"),
        (.syncIgnoreSizeBytes, "sync_offer/receive/refused/size-bytes-plus-one"),
        (.syncNoCap, "sync_offer/receive/refused/over-cap-offer"),
        (.syncTolerateUnknownMembers, "sync_offer/decode_offer/malformed/unknown-member"),
        (.syncImportOverwrites, "sync_offer/import/keyed/plan-by-planID"),
        (.syncOnlyFirstSendWakes, "sync_offer/schedule/boundary/t5000"),
        (.syncEightSends, "sync_offer/schedule/boundary/t35000"),
        (.syncRelayNoDedup, "sync_offer/relay_wake/basic/seven-sends-asleep"),
        (.syncRelayDedupForever, "sync_offer/relay_wake/basic/reconnect-after-third"),
        (.syncWakeClassCaseInsensitive, "sync_offer/wake_class/basic/uppercase"),
        (.cborNonShortestAccepted, "sync_offer/decode_offer/cbor/type-key-head-long"),
        (.cborIndefiniteAccepted, "sync_offer/decode_request/cbor/request-id-indefinite"),
        (.cborUnsortedKeysAccepted, "sync_offer/decode_snapshot/cbor/row-fields-in-schema-order"),
        (.cborDuplicateKeysLastWins, "sync_offer/decode_snapshot/cbor/row-field-duplicated"),
        (.cborRepeatAgainstAllKeys, "sync_offer/decode_ack/cbor/key-repeated-not-adjacent"),
        (.cborDepthContainersOnly, "sync_offer/decode_offer/cbor/depth-33"),
        (.cborCountsReadLazily, "sync_offer/decode_offer/cbor/array-count-before-items"),
        (.cborLossyUTF8, "sync_offer/decode_offer/cbor/type-surrogate"),
        (.syncMembersEncodingOrder, "sync_offer/decode_offer/order/table-not-encoding-order"),
        (.syncTypeCaseInsensitive, "sync_offer/decode_offer/malformed/type-uppercase"),
        (.syncNullMemberAbsent, "sync_offer/decode_snapshot/malformed/row-optional-field-null"),
        (.syncFloatAsInteger, "sync_offer/decode_offer/cbor/size-bytes-half-float"),
        (.syncTextNFC, "sync_offer/encode_snapshot/unicode/nfd-title"),
        (.syncTextSetUTF16Order, "sync_offer/decode_snapshot/unicode/text-set-utf16-order"),
        (.syncNamespaceKeysBeforeRows, "sync_offer/decode_snapshot/order/namespace-rows-before-next-value"),
        (.syncRowFieldsSchemaOrder, "sync_offer/decode_snapshot/order/row-members-encoding-order"),
        (.syncSnapshotInputJSONOrder, "sync_offer/encode_snapshot/order/namespaces-in-digest-order"),
        (.syncImportKeepsPerDevice, "sync_offer/import/seed/full"),
        (.syncImportStripsAllExcluded, "sync_offer/import/strip/kept-excluded-fields"),
        (.syncSnapshotFieldsUnknown, "sync_offer/decode_snapshot/seed/full"),
        (.syncDecimalStringsRefused, "sync_offer/encode_request/int/timestamp-decimal-string"),
        (.syncDecimalStringsLenient, "sync_offer/encode_request/int/timestamp-plus-sign"),
        (.syncIntegralFloatsAccepted, "sync_offer/encode_request/int/timestamp-1.0"),
        (.syncIntegersAsDoubles, "sync_offer/encode_request/int/timestamp-2p53-plus-1-number"),
        (.syncHexLowercaseOnly, "sync_offer/encode_request/hex/request_id-uppercase"),
        (.syncNullInputAbsent, "sync_offer/receive/input/own-hash-null"),
    ]

    @Test func namedCasesKillTheOrderingMutants() throws {
        let vf = try Committed.file("sync_offer")
        let handler = try #require(Reference.handler(for: "sync_offer"))
        for (m, id) in Self.killers {
            // Only the named case is run under the mutant: it must pass unmutated and fail mutated.
            let c = try #require(vf.cases.first { $0.id == id }, "\(id) is not a committed case")
            #expect(MutantMatrix.passes(c, handler: handler), "\(id) fails the unmutated reference")
            #expect(!Mutant.$active.withValue(m) { MutantMatrix.passes(c, handler: handler) }, "\(m.rawValue) should be killed by \(id)")
        }
        #expect(Set(Self.killers.map(\.0)) == Set(Mutant.allCases.filter { $0.format == "sync_offer" }))
    }

    /// SPEC.md §2.3 for the sections this format owns (§1, §2.4, §7): every rule id is unique, every
    /// one is pinned by a sync_offer case, every `order` rule by a case flagged `two-faults`, and
    /// every `rule:` flag names a rule SPEC.md has.
    @Test func everyRuleOfTheSectionsIsPinned() throws {
        let spec = try Fixtures.repoFile("SPEC.md")
        func part(_ from: String, _ to: String) throws -> Substring {
            let a = try #require(spec.range(of: from)), b = try #require(spec.range(of: to, range: a.upperBound..<spec.endIndex))
            return spec[a.lowerBound..<b.lowerBound]
        }
        let mine = String(try part("## 1. CBOR profile", "## 2. Vector files") + part("### 2.4 Times", "## 3. Error vocabulary")
                          + part("<!-- SECTION:sync_offer", "<!-- END:sync_offer -->"))
        func ids(_ text: String) -> [(String, Bool)] {
            var out: [(String, Bool)] = []
            var rest = Substring(text)
            while let open = rest.range(of: "[R") {
                guard let close = rest[open.upperBound...].firstIndex(of: "]") else { break }
                let body = rest[open.upperBound..<close]
                let isOrder = body.hasSuffix(" order")
                let id = "R" + (isOrder ? body.dropLast(6) : body)
                if id.contains("-"), id.dropFirst().allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) { out.append((String(id), isOrder)) }
                rest = rest[close...]
            }
            return out
        }
        let rules = ids(mine)
        #expect(rules.count >= 90)
        #expect(Set(rules.map(\.0)).count == rules.count, "a rule id appears twice")
        let everyRule = Set(ids(spec).map(\.0))
        let vf = try Committed.file("sync_offer")
        var pinned: [String: [VectorCase]] = [:]
        for c in vf.cases {
            for f in c.flags where f.hasPrefix("rule:") { pinned[String(f.dropFirst(5)), default: []].append(c) }
        }
        for (id, isOrder) in rules {
            let cs = pinned[id] ?? []
            #expect(!cs.isEmpty, "\(id) is pinned by no case")
            if isOrder { #expect(cs.contains { $0.flags.contains("two-faults") }, "order rule \(id) has no two-faults case") }
        }
        for id in pinned.keys { #expect(everyRule.contains(id), "a case flags \(id), which SPEC.md does not define") }
        for c in vf.cases { #expect(c.flags.contains { $0.hasPrefix("rule:") }, "\(c.id) names no rule") }
    }

    @Test func unknownOpIsRejected() {
        #expect(throws: WireError(.unknownOp, "")) { try SyncOfferHandler().run(op: "sync", input: .object([])) }
    }

    /// SPEC.md §7 lists every sync_ code (§7.10) and every op (§7.9) the code defines, and no other.
    @Test func specSectionInStepWithCode() throws {
        let spec = try Fixtures.repoFile("SPEC.md")
        let start = try #require(spec.range(of: "<!-- SECTION:sync_offer"))
        let end = try #require(spec.range(of: "<!-- END:sync_offer -->"))
        let section = String(spec[start.upperBound..<end.lowerBound])
        func codes(in text: String, prefix: String) -> Set<String> {
            var out = Set<String>()
            for line in text.split(separator: "\n") where line.hasPrefix("| `\(prefix)") {
                let cell = line.dropFirst(3)
                if let close = cell.firstIndex(of: "`") { out.insert(String(cell[..<close])) }
            }
            return out
        }
        let table = codes(in: section, prefix: "sync_")
        #expect(table == Set(ErrorCode.allCases.map(\.rawValue).filter { $0.hasPrefix("sync_") }))
        for op in SyncOfferHandler().ops { #expect(section.contains("`\(op)`"), "op \(op) missing from SPEC §7.9") }
    }
}
